// `checkwriter approvals set`: a company's approval policy for scripted set-ups (docs/approvals.md),
// the same rule the panel's policy form sets, recorded in the audit trail as set by the owner or
// admin named by --email.
import { parseArgs } from 'node:util';
import { parseApproverCount, parseThreshold } from '../domain/approvals/policy.ts';
import { formatCents } from '../domain/money.ts';
import { AppError } from '../errors.ts';
import { policySetter, setPolicy } from '../services/approvals/policy.service.ts';
import { accountByEmail } from '../services/operator.service.ts';
import type { CommandSession } from './command-context.ts';

export const APPROVALS_USAGE = `  approvals set --email OWNER --threshold AMOUNT --approvers 1|2|0 [--bank-account ID]
                                          checks at or above AMOUNT dollars (0: every check) need
                                          that many approvals, for the company or one bank
                                          account; --approvers 0 removes the rule`;

function usage(message: string): AppError {
  return new AppError('bad_request', `${message}\n\nUsage:\n${APPROVALS_USAGE}`);
}

function flags(rest: string[]) {
  try {
    return parseArgs({
      args: rest,
      options: {
        email: { type: 'string' },
        threshold: { type: 'string' },
        approvers: { type: 'string' },
        'bank-account': { type: 'string', default: '' },
      },
    }).values;
  } catch (error) {
    throw usage(error instanceof Error ? error.message : String(error));
  }
}

export async function approvalsCommand(
  session: CommandSession,
  sub: string | undefined,
  rest: string[],
  out: (line: string) => void,
): Promise<number> {
  if (sub !== 'set') throw usage(`unknown approvals command "${sub ?? ''}"`);
  const values = flags(rest);
  const email = values.email ?? '';
  if (email === '') throw usage('--email is required');
  const threshold = parseThreshold(values.threshold ?? '');
  if (threshold === null) throw usage('--threshold must be an amount in dollars, such as 1000 or 2500.00');
  // Exactly 0, 1 or 2: a missing --approvers is not 0, which would remove the rule.
  const approvers = parseApproverCount(values.approvers);
  if (approvers === null)
    throw usage(
      `--approvers must be 1 or 2 (0 removes the rule), ${values.approvers === undefined ? 'and is required' : `got "${values.approvers}"`}`,
    );
  const account = await accountByEmail(session.db, email);
  if (account === undefined) throw new AppError('not_found', `no account with email ${email}`);
  const ctx = await session.context();
  const actor = await policySetter(ctx, account.id, email);
  if (actor === undefined) throw new AppError('forbidden', `${email} is not an owner or admin of the company`);
  const bankAccountId = values['bank-account'] ?? '';
  await setPolicy(
    ctx,
    { accountId: account.id, env: '', actor },
    { thresholdCents: threshold, approvers, bankAccountId },
  );
  const scope = bankAccountId === '' ? 'every bank account' : `bank account ${bankAccountId}`;
  out(
    approvers === 0
      ? `approval rule removed for ${scope}`
      : `checks of $${formatCents(threshold)} or more on ${scope} now need ${approvers} approval${approvers === 1 ? '' : 's'}`,
  );
  return 0;
}
