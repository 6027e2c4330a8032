// The payee link token a delivery carries. Tokens are random, so nothing
// a copy of the database holds derives them: until the message
// is sent the token is only in its outbox row, sealed; after that only in the message itself
// (the sandbox inbox for test keys, sealed there too; the email for live ones). Tests read it from where it is.
import { deliveryTokenContext, sandboxMessageContext } from '../../src/domain/sealed.ts';
import type { TestApp } from './app.ts';
import { parseMail, type ReceivedMail } from './mail-peers.ts';

export async function payeeLinkToken(
  t: TestApp,
  deliveryId: string,
  mails: readonly ReceivedMail[] = [],
): Promise<string> {
  const db = t.database.db;
  const row = await db.get<{ sealed_token: string | null }>('SELECT sealed_token FROM deliveries WHERE id = ?', [
    deliveryId,
  ]);
  if (row?.sealed_token != null) return t.keys.vault.open(row.sealed_token, deliveryTokenContext(deliveryId));
  // The sandbox inbox keeps the link sealed, bound to its message's id (domain/sealed-sandbox.ts).
  const sandbox = await db.get<{ id: string; link: string }>(
    'SELECT id, link FROM sandbox_messages WHERE delivery_id = ?',
    [deliveryId],
  );
  if (sandbox !== undefined) {
    const link = t.keys.vault.open(sandbox.link, sandboxMessageContext(sandbox.id, 'link'));
    return new URL(link).pathname.replace(/^\/c\//, '');
  }
  for (const mail of mails) {
    if (mail.messageId !== `<${deliveryId}@checkwriter>`) continue;
    const text = (await parseMail(mail.raw)).text ?? '';
    const token = /\/c\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
    if (token !== undefined) return token;
  }
  throw new Error(`no payee link found for delivery ${deliveryId}`);
}
