// What a payee receives: the email (HTML and text) and the SMS, built from the check and the
// sender's company. Plain templates; every value is HTML-escaped.
import { escapeHtml } from '../formats/html-text.ts';
import { formatCents } from '../domain/money.ts';

export interface CheckMessageInput {
  company: string;
  payeeName: string;
  amountCents: number | null;
  memo: string | null;
  serialNumber: string;
  issueDate: string;
  link: string;
  linkExpiresOn: string;
}

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

function money(cents: number | null): string {
  if (cents === null) return 'a check';
  return `$${formatCents(cents)}`;
}

export function checkEmail(m: CheckMessageInput): EmailContent {
  const amount = money(m.amountCents);
  const subject = `${m.company} sent you a check for ${amount}`;
  const lines = [
    `Hello ${m.payeeName},`,
    '',
    `${m.company} has sent you check number ${m.serialNumber} for ${amount}, dated ${m.issueDate}.`,
    ...(m.memo === null ? [] : [`Memo: ${m.memo}`]),
    '',
    `View and print your check: ${m.link}`,
    `The link works until ${m.linkExpiresOn}. Print it on plain paper and deposit it as you would any check.`,
  ];
  const e = escapeHtml;
  const html = `<!doctype html><html><body style="font-family:Helvetica,Arial,sans-serif;color:#1a1a1a;max-width:560px">
<p>Hello ${e(m.payeeName)},</p>
<p><strong>${e(m.company)}</strong> has sent you check number ${e(m.serialNumber)} for <strong>${e(amount)}</strong>, dated ${e(m.issueDate)}.</p>
${m.memo === null ? '' : `<p>Memo: ${e(m.memo)}</p>`}
<p><a href="${e(m.link)}" style="display:inline-block;padding:10px 16px;background:#1f4e8c;color:#fff;text-decoration:none;border-radius:4px">View and print your check</a></p>
<p style="font-size:13px;color:#555">The link works until ${e(m.linkExpiresOn)}. Print it on plain paper and deposit it as you would any check.</p>
</body></html>`;
  return { subject, text: lines.join('\n'), html };
}

export function checkSms(m: CheckMessageInput): string {
  return `${m.company} sent you a check for ${money(m.amountCents)}. View and print it: ${m.link}`;
}

/** What the panel sends the account's own people: the email-verification and password-reset links. */
export function accountEmail(purpose: 'verify-email' | 'reset-password', company: string, link: string): EmailContent {
  const e = escapeHtml;
  const [subject, intro, button, outro] =
    purpose === 'verify-email'
      ? [
          'Verify your email address for checkwriter',
          `Confirm that this is the email address of ${company}'s checkwriter account.`,
          'Verify my email address',
          'The link works for 48 hours. If you did not sign up, ignore this email.',
        ]
      : [
          'Reset your checkwriter password',
          `Someone asked to reset the password of ${company}'s checkwriter account.`,
          'Choose a new password',
          'The link works for one hour and only once. If you did not ask, ignore this email: your password stays as it is.',
        ];
  const text = [intro, '', `${button}: ${link}`, '', outro].join('\n');
  const html = `<!doctype html><html><body style="font-family:Helvetica,Arial,sans-serif;color:#1a1a1a;max-width:560px">
<p>${e(intro)}</p>
<p><a href="${e(link)}" style="display:inline-block;padding:10px 16px;background:#1f4e8c;color:#fff;text-decoration:none;border-radius:4px">${e(button)}</a></p>
<p style="font-size:13px;color:#555">${e(outro)}</p>
</body></html>`;
  return { subject, text, html };
}

/** Tells a person one of their recovery codes was used (never which one): if it was not them, act now. */
export function recoveryCodeUsedEmail(company: string, usedAt: string): EmailContent {
  const e = escapeHtml;
  const subject = 'A recovery code was used to sign in to checkwriter';
  const lines = [
    `One of your recovery codes was used at ${usedAt} (UTC) to sign in to ${company}'s checkwriter account in place of your second factor.`,
    '',
    'Each code works once. If this was not you, reset your password at once and make new recovery codes on the Security page.',
  ];
  const html = `<!doctype html><html><body style="font-family:Helvetica,Arial,sans-serif;color:#1a1a1a;max-width:560px">
${lines
  .filter((l) => l !== '')
  .map((l) => `<p>${e(l)}</p>`)
  .join('\n')}
</body></html>`;
  return { subject, text: lines.join('\n'), html };
}

export function phoneCodeSms(code: string): string {
  return `Your checkwriter verification code is ${code}. It works for 15 minutes.`;
}

/** An invitation to join a company: who invited, with which role, and the single-use link. */
export function invitationEmail(m: { company: string; inviter: string; role: string; link: string }): EmailContent {
  const e = escapeHtml;
  const subject = `${m.inviter} invited you to ${m.company} on checkwriter`;
  const intro = `${m.inviter} invited you to join ${m.company} on checkwriter as ${m.role}.`;
  const button = 'Accept the invitation';
  const outro =
    'The link works for 7 days and only once. If you did not expect it, ignore this email: nothing happens.';
  const text = [intro, '', `${button}: ${m.link}`, '', outro].join('\n');
  const html = `<!doctype html><html><body style="font-family:Helvetica,Arial,sans-serif;color:#1a1a1a;max-width:560px">
<p>${e(intro)}</p>
<p><a href="${e(m.link)}" style="display:inline-block;padding:10px 16px;background:#1f4e8c;color:#fff;text-decoration:none;border-radius:4px">${e(button)}</a></p>
<p style="font-size:13px;color:#555">${e(outro)}</p>
</body></html>`;
  return { subject, text, html };
}
