// `checkwriter audit verify`: walks every company's audit chain (docs/audit.md) and prints, per
// company, how many records fit, or the first record that does not (its seq, id and why).
// Exits 1 when any chain is broken, so a scheduled job or a script can act on it.
import { AppError } from '../errors.ts';
import { verifyAll } from '../services/audit.service.ts';
import { quoted } from './command-helpers.ts';

export const AUDIT_USAGE = `  audit verify                            check every company's audit trail chain: prints each
                                          company's record count and OK, or the first record
                                          that does not fit; exits 1 if any does not`;

function usage(message: string): AppError {
  return new AppError('bad_request', `${message}\n\nUsage:\n${AUDIT_USAGE}`);
}

export async function auditCommand(
  q: Parameters<typeof verifyAll>[0],
  sub: string | undefined,
  out: (line: string) => void,
  rest: readonly string[] = [],
): Promise<number> {
  if (sub !== 'verify') throw usage(`unknown audit command "${sub ?? ''}"`);
  if (rest.length > 0) throw usage(`audit verify takes no arguments (got ${quoted(rest)})`);
  const verdicts = await verifyAll(q);
  let broken = 0;
  for (const v of verdicts) {
    if (v.ok) out(`${v.accountId}: ${v.count} records OK`);
    else {
      broken += 1;
      out(`${v.accountId}: BROKEN at record ${v.seq} (${v.id}): ${v.what}; ${v.count} records before it fit`);
    }
  }
  if (verdicts.length === 0) out('no audit records yet');
  out(
    broken === 0
      ? `audit trail OK (${verdicts.length} companies)`
      : `audit trail BROKEN in ${broken} of ${verdicts.length} companies`,
  );
  return broken === 0 ? 0 : 1;
}
