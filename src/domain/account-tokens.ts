// One-time account tokens: the email-verification link, the phone code and the password-reset
// link. Email links are random like payee links (sealed in the outbox row until sent, then only
// their hash remains); the phone code, and email links queued by older versions, are derived from
// the token's id with the server secret.
import { createHmac } from 'node:crypto';
import { derivedToken } from './secret-tokens.ts';

export type AccountTokenPurpose = 'verify-email' | 'verify-phone' | 'reset-password';

/** How long each kind of token works. */
export const TOKEN_LIFETIME_MS: Readonly<Record<AccountTokenPurpose, number>> = {
  'verify-email': 48 * 60 * 60 * 1000,
  'verify-phone': 15 * 60 * 1000,
  'reset-password': 60 * 60 * 1000,
};

/** Wrong phone codes allowed per code before a new one must be sent. */
export const MAX_CODE_ATTEMPTS = 5;

export function accountToken(secret: Buffer, tokenId: string): string {
  return derivedToken(secret, `account-token:${tokenId}`);
}

/** The six-digit code texted for a phone-verification token. */
export function phoneCode(secret: Buffer, tokenId: string): string {
  const digest = createHmac('sha256', secret).update(`phone-code:${tokenId}`).digest();
  return String(digest.readUInt32BE(0) % 1_000_000).padStart(6, '0');
}
