// Payee pages (/c/<token>): the token is derived from the delivery id with the service secret, so
// a retried send carries the same link, nothing secret is stored (only the token's SHA-256,
// secret-tokens.ts), and the token cannot be guessed from the id.
import { derivedToken } from './secret-tokens.ts';

export function linkToken(secret: Buffer, deliveryId: string): string {
  return derivedToken(secret, `payee-link:${deliveryId}`);
}

export function payeeLink(publicUrl: string, token: string): string {
  return `${publicUrl}/c/${token}`;
}
