// The service's secret-derived tokens (payee links, account links and codes, panel CSRF tokens)
// and the one-way hash under which any token is stored (API keys, links, sessions): one place, so
// each kind differs only by its label.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of `label` under the service secret, base64url: the same label gives the same token. */
export function derivedToken(secret: Buffer, label: string): string {
  return createHmac('sha256', secret).update(label).digest('base64url');
}

/** A fresh random token: 256 bits, base64url. Only its hash is kept once it has been sent. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 hex of a token: what the database keeps instead of the token. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Constant-time equality of two secret strings. */
export function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether an Authorization header carries the Bearer token whose hash is `expectedHash`. Both
 * sides are hashed first, so the comparison takes the same time whatever length was sent.
 */
export function bearerMatches(expectedHash: string, authorization: string | undefined): boolean {
  const given = (authorization ?? '').replace(/^Bearer\s+/i, '').trim();
  return sameSecret(expectedHash, tokenHash(given));
}
