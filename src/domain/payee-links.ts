// Payee pages (/c/<token>): the token is an HMAC of the delivery id under the service secret, so
// a retried send carries the same link, nothing secret is stored (only the token's SHA-256), and
// the token cannot be guessed from the id.
import { createHash, createHmac } from 'node:crypto';

export function linkToken(secret: Buffer, deliveryId: string): string {
  return createHmac('sha256', secret).update(`payee-link:${deliveryId}`).digest('base64url');
}

export function linkTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function payeeLink(publicUrl: string, token: string): string {
  return `${publicUrl}/c/${token}`;
}
