// Payee pages (/c/<token>): the token is random (secret-tokens.ts randomToken); the database keeps
// its SHA-256, and the token itself only sealed in its outbox row until the message is sent, so
// a retried send carries the same link. Messages queued by older versions carry the token derived
// from the delivery id with the server secret (linkToken), which the worker still computes.
import { derivedToken } from './secret-tokens.ts';

export function linkToken(secret: Buffer, deliveryId: string): string {
  return derivedToken(secret, `payee-link:${deliveryId}`);
}

export function payeeLink(publicUrl: string, token: string): string {
  return `${publicUrl}/c/${token}`;
}
