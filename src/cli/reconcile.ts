// `checkwriter reconcile FILE`: the bank's file of paid checks (CSV, OFX/QFX or BAI2) matched
// against a bank account's checks, as POST /bankAccounts/{id}/clearedItems and the panel's upload
// do — the same service, so the same file gives the same result (docs/reconciliation.md). The
// result goes to stdout, one line per row; a file that cannot be read is refused and clears nothing.
import { parseArgs } from 'node:util';
import { BANK_FILE_LAYOUTS, MAX_CLEARED_ITEMS_BYTES } from '../domain/cleared-items.ts';
import { formatCents } from '../domain/money.ts';
import { ENVIRONMENTS, type Environment } from '../domain/owner.ts';
import { AppError } from '../errors.ts';
import { reconcile } from '../services/checks/clearing.service.ts';
import { accountByEmail } from '../services/operator.service.ts';
import { type CommandSession, commandLinePrincipal } from './command-context.ts';
import { inputFileSize, readInputFile } from './command-helpers.ts';

export const RECONCILE_USAGE = `  reconcile FILE --email EMAIL --bank-account ID [--env test|live] [--cleared-date YYYY-MM-DD]
                                          clear the checks the bank's file (CSV, OFX/QFX or BAI2)
                                          says were paid; rows that do not match change nothing`;

function usage(message: string): AppError {
  return new AppError('bad_request', `${message}\n\nUsage:\n${RECONCILE_USAGE}`);
}

function flags(rest: string[]) {
  try {
    return parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        'bank-account': { type: 'string' },
        env: { type: 'string', default: 'test' },
        'cleared-date': { type: 'string' },
      },
    });
  } catch (error) {
    throw usage(error instanceof Error ? error.message : String(error));
  }
}

const money = (cents: number): string => `$${formatCents(cents)}`;

export async function reconcileCommand(session: CommandSession, rest: string[]): Promise<number> {
  const { values, positionals } = flags(rest);
  const [path, ...extra] = positionals;
  if (path === undefined || extra.length > 0) throw usage('name one file');
  if (values.email === undefined || values.email === '') throw usage('--email is required');
  const bankAccountId = values['bank-account'];
  if (bankAccountId === undefined || bankAccountId === '') throw usage('--bank-account is required');
  const env = (values.env ?? 'test') as Environment;
  if (!ENVIRONMENTS.includes(env)) throw usage(`--env must be test or live, got "${values.env}"`);
  // The API's bound, before the file is read into memory.
  if (inputFileSize(path) > MAX_CLEARED_ITEMS_BYTES)
    throw new AppError('validation', 'The file is larger than 1 MB: split it.');
  const text = readInputFile(path);
  if (text.trim() === '') throw new AppError('validation', 'The cleared-items file is empty.');
  const account = await accountByEmail(session.db, values.email);
  if (account === undefined) throw new AppError('not_found', `no account with email ${values.email}`);
  const principal = commandLinePrincipal(account, env);
  const ctx = await session.context();
  const result = await reconcile(ctx, principal, bankAccountId, text, values['cleared-date']);
  const cleared = result.matched.reduce((sum, m) => sum + m.amountCents, 0);
  const lines = [
    `read as: ${BANK_FILE_LAYOUTS[result.layout]} (check number: ${result.columns.checkNumber}; amount: ${result.columns.amount}; date: ${result.columns.date ?? 'none, --cleared-date'})`,
    `cleared ${result.matched.length} ${result.matched.length === 1 ? 'check' : 'checks'} (${money(cleared)})`,
    ...result.matched.map(
      (m) => `  cleared   line ${m.line}: check ${m.checkNumber} ${money(m.amountCents)} paid ${m.clearedDate}`,
    ),
    `not matched ${result.mismatched.length} ${result.mismatched.length === 1 ? 'row' : 'rows'} (nothing changed for them)`,
    ...result.mismatched.map((m) => `  ${m.reason} line ${m.line}: ${m.message}`),
    `money in with a number, never a check: ${result.credits.length}`,
    ...result.credits.map((c) => `  credit    line ${c.line}: ${c.checkNumber} ${money(c.amountCents)} on ${c.date}`),
    `skipped ${result.skippedLines} ${result.skippedLines === 1 ? 'line' : 'lines'} without a check number`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
