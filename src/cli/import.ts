// `checkwriter import checks|payees FILE.csv --email EMAIL`: the CSV import of the panel and the API
// (services/imports/), run in this process with a progress bar on stderr. A file with
// errors is refused whole: every row's errors are printed and the exit code is 1.
import { parseArgs } from 'node:util';
import { IMPORT_KINDS, type ImportKind, isDateOrder } from '../domain/import-columns.ts';
import { ENVIRONMENTS, type Environment } from '../domain/owner.ts';
import { AppError } from '../errors.ts';
import { commandLinePrincipal, type OpenSession } from './command-context.ts';
import type { ImportOptions } from '../services/imports/model.ts';
import { ImportRefused, startImport } from '../services/imports/preview.service.ts';
import { MAX_IMPORT_BYTES } from '../formats/imports/read-import-file.ts';
import { inputFileSize, quoted, readInputFile } from './command-helpers.ts';
import { errorsOf, getImport, resultOf } from '../services/imports/records.service.ts';
import { runImport } from '../services/imports/runner.service.ts';
import { accountByEmail } from '../services/operator.service.ts';

export const IMPORT_USAGE = `  import checks|payees FILE.csv --email EMAIL [--env test|live] [--bank-account ID]
         [--create-payees] [--date-order mdy|dmy] [--money-out negative] [--map COLUMN=FIELD ...]
                                          import a CSV file, all or nothing (docs/imports.md)`;

/** A mistake in the command line: its message, then the import command's usage (exit code 2). */
function usage(message: string): AppError {
  return new AppError('bad_request', `${message}\n\nUsage:\n${IMPORT_USAGE}`);
}

/** Writes progress to stderr: a redrawn bar on a terminal, a plain line per step otherwise. */
export function progressWriter(total: number, stream: NodeJS.WriteStream = process.stderr): (done: number) => void {
  const tty = stream.isTTY === true;
  return (done) => {
    const share = total === 0 ? 1 : done / total;
    if (tty) {
      const width = 30;
      const filled = Math.round(share * width);
      stream.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(share * 100)}% ${done}/${total} rows`,
      );
      if (done >= total) stream.write('\n');
    } else stream.write(`imported ${done}/${total} rows\n`);
  };
}

/** "Column=field" options into a mapping. */
function mappingOf(values: readonly string[]): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const value of values) {
    const at = value.lastIndexOf('=');
    if (at < 0) throw usage(`--map must be COLUMN=FIELD (FIELD empty to leave the column out), got "${value}"`);
    mapping[value.slice(0, at)] = value.slice(at + 1);
  }
  return mapping;
}

export async function importCommand(
  kind: string | undefined,
  argv: string[],
  openSession: OpenSession,
): Promise<number> {
  const args = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      env: { type: 'string' },
      'bank-account': { type: 'string' },
      'create-payees': { type: 'boolean', default: false },
      'date-order': { type: 'string' },
      'money-out': { type: 'string' },
      map: { type: 'string', multiple: true },
    },
  });
  if (kind === undefined || !IMPORT_KINDS.includes(kind as ImportKind))
    throw usage(`import needs a kind, checks or payees${kind === undefined ? '' : ` (got "${kind}")`}`);
  const [file, ...extra] = args.positionals;
  if (file === undefined)
    throw usage('import needs the CSV file: checkwriter import checks|payees FILE.csv --email EMAIL');
  if (extra.length > 0) throw usage(`import takes one CSV file; got ${quoted(args.positionals)}`);
  const email = args.values.email;
  if (email === undefined || email === '') throw usage('--email is required');
  const env = (args.values.env ?? 'test') as Environment;
  if (!ENVIRONMENTS.includes(env)) throw usage(`--env must be test or live, got "${args.values.env}"`);
  const dateOrder = args.values['date-order'] ?? 'mdy';
  if (!isDateOrder(dateOrder)) throw usage('--date-order must be mdy or dmy');
  const moneyOut = args.values['money-out'];
  if (moneyOut !== undefined && moneyOut !== 'positive' && moneyOut !== 'negative')
    throw usage('--money-out must be positive or negative');
  // The size is checked before the file is read, so a huge file costs nothing.
  if (inputFileSize(file) > MAX_IMPORT_BYTES)
    throw new AppError(
      'bad_request',
      `${file} is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB: split it into smaller files.`,
    );
  const csv = readInputFile(file);

  const mapping = mappingOf(args.values.map ?? []);

  return openSession(async (session) => {
    const account = await accountByEmail(session.db, email);
    if (account === undefined || account === null) throw new AppError('not_found', `no account with email ${email}`);
    const ctx = await session.context();
    const principal = commandLinePrincipal(account, env);
    const options: ImportOptions = {
      kind: kind as ImportKind,
      csv,
      fileName: file.split(/[\\/]/).at(-1) ?? file,
      mapping,
      createPayees: args.values['create-payees'],
      dateOrder,
      ...(moneyOut === undefined ? {} : { moneyOut }),
      ...(args.values['bank-account'] === undefined ? {} : { bankAccountId: args.values['bank-account'] }),
    };
    let record: Awaited<ReturnType<typeof startImport>>;
    try {
      record = await startImport(ctx, principal, options);
    } catch (error) {
      if (!(error instanceof ImportRefused)) throw error;
      process.stderr.write(`checkwriter: ${file} was not imported: ${error.rowErrors.length} rows have errors.\n`);
      for (const row of error.rowErrors)
        process.stderr.write(`  row ${row.row} (line ${row.line}): ${row.messages.join(' ')}\n`);
      return 1;
    }
    // A recognised export ignores --map, so say which one it was taken for.
    if (record.layout !== null)
      process.stderr.write(`read as: ${record.layout.label} (${record.layout.id}), nothing to map\n`);
    process.stderr.write(`import ${record.id}: ${record.rowsTotal} ${kind}\n`);
    const progress = progressWriter(record.rowsTotal);
    let ended = await runImport(ctx, record.id, progress);
    // A server on the same database may have taken the import first: wait for it to finish.
    while (ended === undefined || ended.state === 'queued' || ended.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      ended = await getImport(ctx, principal, record.id);
    }
    if (ended.state === 'failed') {
      process.stderr.write(`checkwriter: import ${ended.id} failed; nothing was imported.\n`);
      for (const row of errorsOf(ended))
        process.stderr.write(`  row ${row.row} (line ${row.line}): ${row.messages.join(' ')}\n`);
      return 1;
    }
    const result = resultOf(ended);
    const ids = kind === 'checks' ? result.checkIds : result.payeeIds;
    process.stdout.write(`imported ${ids.length} ${kind} (import ${ended.id})\n`);
    if (result.createdPayeeIds.length > 0) process.stdout.write(`created ${result.createdPayeeIds.length} payees\n`);
    return 0;
  });
}
