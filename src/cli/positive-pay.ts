// `checkwriter positive-pay export`: the same export as POST /api/v3/positive-pay-exports and the
// panel's page, for an operator at the shell (docs/positive-pay.md). The file goes to stdout, or
// to --out FILE (created readable by its owner only: it holds the full account number); the
// summary goes to stderr, so `> file` captures the file alone.
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { formatCents } from '../domain/money.ts';
import { ENVIRONMENTS, type Environment } from '../domain/owner.ts';
import { isPositivePayFormat } from '../domain/positive-pay.ts';
import { AppError } from '../errors.ts';
import type { CommandSession } from './command-context.ts';
import { fileProblem } from './command-helpers.ts';
import { createExport } from '../services/positive-pay.service.ts';
import { accountByEmail } from '../services/operator.service.ts';

export const POSITIVE_PAY_USAGE = `  positive-pay export --email EMAIL --bank-account ID --from YYYY-MM-DD --to YYYY-MM-DD
                     [--format csv|fixed|bank] [--env test|live] [--out FILE]
                                          write the positive pay file of a bank account's issued
                                          and voided checks (stdout unless --out); it is recorded`;

function usage(message: string): AppError {
  return new AppError('bad_request', `${message}\n\nUsage:\n${POSITIVE_PAY_USAGE}`);
}

function flag(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw usage(`--${name} is required`);
  return value;
}

function flags(rest: string[]) {
  try {
    return parseArgs({
      args: rest,
      options: {
        email: { type: 'string' },
        'bank-account': { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        format: { type: 'string', default: 'csv' },
        env: { type: 'string', default: 'test' },
        out: { type: 'string' },
      },
    }).values;
  } catch (error) {
    // An unknown or misspelt flag is a usage error, not a crash.
    throw usage(error instanceof Error ? error.message : String(error));
  }
}

/** --out names a file this process may write: an existing writable file, or a new one in a writable folder. */
function checkWritable(out: string): void {
  try {
    const stat = statSync(out, { throwIfNoEntry: false });
    if (stat?.isDirectory() === true) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    accessSync(stat === undefined ? dirname(out) : out, constants.W_OK);
  } catch (error) {
    const missingFolder = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new AppError(
      'bad_request',
      `cannot write --out ${out}: ${missingFolder ? `the folder ${dirname(out)} does not exist` : fileProblem(error)}`,
    );
  }
}

export async function positivePayCommand(
  session: CommandSession,
  sub: string | undefined,
  rest: string[],
): Promise<number> {
  if (sub !== 'export') throw usage(`unknown positive-pay command "${sub ?? ''}"`);
  const values = flags(rest);
  const email = flag(values.email, 'email');
  const bankAccountId = flag(values['bank-account'], 'bank-account');
  const from = flag(values.from, 'from');
  const to = flag(values.to, 'to');
  const format = values.format ?? 'csv';
  if (!isPositivePayFormat(format)) throw usage(`--format must be csv, fixed or bank, got "${format}"`);
  const env = (values.env ?? 'test') as Environment;
  if (!ENVIRONMENTS.includes(env)) throw usage(`--env must be test or live, got "${values.env}"`);
  // An --out that cannot be written is refused before the export is made and recorded.
  if (values.out !== undefined) checkWritable(values.out);
  const account = await accountByEmail(session.db, email);
  if (account === undefined) throw new AppError('not_found', `no account with email ${email}`);

  const ctx = await session.context();
  const { record, file } = await createExport(
    ctx,
    { accountId: account.id, env },
    account.timeZone,
    { via: 'cli', id: account.email },
    { bankAccountId, from, to, format },
  );
  if (values.out === undefined) process.stdout.write(file.content);
  else {
    try {
      writeFileSync(values.out, file.content, { mode: 0o600 });
    } catch (error) {
      throw new AppError(
        'bad_request',
        `export ${record.id} was recorded but ${values.out} was not written: ${fileProblem(error)}`,
      );
    }
  }
  process.stderr.write(
    `export ${record.id}: ${record.issuedCount} issued ($${formatCents(record.issuedTotalCents)}), ` +
      `${record.voidCount} voided ($${formatCents(record.voidTotalCents)}), ${from} to ${to}, ${format}` +
      `${values.out === undefined ? '' : `, written to ${values.out}`}\n`,
  );
  return 0;
}
