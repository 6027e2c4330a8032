// What people of a company hear about approvals (docs/approvals.md): approvers get one email per
// batch of checks that wait for them; the writer hears when a check is approved or rejected. Plain
// templates; every value is HTML-escaped. No account number or token is in them.
import { formatCents } from '../domain/money.ts';
import { escapeHtml } from '../formats/html-text.ts';
import type { EmailContent } from './messages.ts';

export type ApprovalNews = 'waiting' | 'approved' | 'rejected';

export interface ApprovalMessageInput {
  readonly news: ApprovalNews;
  readonly company: string;
  readonly checks: readonly { serialNumber: string; amountCents: number | null; payee: string }[];
  readonly reason: string | null;
  /** The approval queue (waiting) or the checks list (approved, rejected). */
  readonly link: string;
}

function line(c: ApprovalMessageInput['checks'][number]): string {
  const amount = c.amountCents === null ? 'no amount' : `$${formatCents(c.amountCents)}`;
  return `Check ${c.serialNumber} to ${c.payee === '' ? '(no payee)' : c.payee}, ${amount}`;
}

export function approvalEmail(m: ApprovalMessageInput): EmailContent {
  const n = m.checks.length;
  const one = n === 1;
  const plural = one ? 'check' : 'checks';
  // One check is worded in the singular: "1 check … waits", not "1 check … wait".
  const subject =
    m.news === 'waiting'
      ? `${n} ${plural} of ${m.company} ${one ? 'waits' : 'wait'} for your approval`
      : m.news === 'approved'
        ? `${n} ${plural} of ${m.company} approved`
        : `${n} ${plural} of ${m.company} rejected`;
  const these = one ? 'This check' : 'These checks';
  const intro =
    m.news === 'waiting'
      ? `${these} ${one ? 'waits' : 'wait'} for your approval before ${one ? 'it' : 'they'} can be printed, emailed or mailed:`
      : m.news === 'approved'
        ? `${these} you wrote ${one ? 'has all its' : 'have all their'} approvals and can now be printed, emailed or mailed:`
        : `${these} you wrote ${one ? 'was' : 'were'} rejected; ${one ? 'it' : 'they'} can only be voided or deleted:`;
  const reason = m.reason === null ? [] : [`Reason: ${m.reason}`];
  const action = m.news === 'waiting' ? 'Open the approval queue' : 'Open your checks';
  const text = [intro, '', ...m.checks.map(line), '', ...reason, `${action}: ${m.link}`].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html><html><body style="font-family:Helvetica,Arial,sans-serif;color:#1a1a1a;max-width:560px">
<p>${e(intro)}</p>
<ul>${m.checks.map((c) => `<li>${e(line(c))}</li>`).join('')}</ul>
${m.reason === null ? '' : `<p>Reason: ${e(m.reason)}</p>`}
<p><a href="${e(m.link)}">${e(action)}</a></p>
</body></html>`;
  return { subject, text, html };
}
