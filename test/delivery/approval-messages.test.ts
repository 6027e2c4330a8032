// The approval emails' words: one check is spoken of in the singular, several in the plural, in
// the subject and the first line alike (a single check held read "1 check of … wait for your
// approval").
import { describe, expect, it } from 'vitest';
import { type ApprovalNews, approvalEmail } from '../../src/delivery/approval-messages.ts';

const check = (serialNumber: string) => ({ serialNumber, amountCents: 420_000, payee: 'Globex' });
const mail = (news: ApprovalNews, count: number) =>
  approvalEmail({
    news,
    company: 'Held Co',
    checks: Array.from({ length: count }, (_, i) => check(String(2001 + i))),
    reason: news === 'rejected' ? 'Duplicate' : null,
    link: 'https://checks.example/panel/approvals',
  });

describe('approval email words', () => {
  it('speaks of one check in the singular', () => {
    expect(mail('waiting', 1).subject).toBe('1 check of Held Co waits for your approval');
    expect(mail('waiting', 1).text).toMatch(/^This check waits for your approval before it can be printed/);
    expect(mail('approved', 1).text).toMatch(/^This check you wrote has all its approvals/);
    expect(mail('rejected', 1).text).toMatch(/^This check you wrote was rejected; it can only be voided or deleted/);
    expect(mail('waiting', 1).text).toContain('Check 2001 to Globex, $4,200.00');
  });

  it('speaks of several checks in the plural', () => {
    expect(mail('waiting', 3).subject).toBe('3 checks of Held Co wait for your approval');
    expect(mail('waiting', 3).text).toMatch(/^These checks wait for your approval before they can be printed/);
    expect(mail('approved', 2).text).toMatch(/^These checks you wrote have all their approvals/);
    expect(mail('rejected', 2).text).toMatch(/^These checks you wrote were rejected; they can only be voided/);
    expect(mail('rejected', 2).html).toContain('<li>Check 2002 to Globex, $4,200.00</li>');
  });
});
