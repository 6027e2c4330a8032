// The sandbox inbox (sandbox_messages): what test keys "sent", kept here instead of leaving the
// machine. Its text, HTML and link columns hold sealed values (domain/sealed-sandbox.ts): this file
// stores and reads them as they are, and the services seal and open them.
import type { SandboxMessage } from '../domain/delivery.ts';
import type { Queryable } from './db.ts';
import { pagedRows } from './owned-queries.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertStatement, rowValues } from './table.ts';

/** The sandbox_messages table as stored (migrations 003, 025). */
interface SandboxMessagesRow {
  id: string;
  account_id: string;
  delivery_id: string;
  check_id: string | null;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  link: string;
  attachments: string;
  created_at: number;
}

const SANDBOX_MESSAGES = defineTable<SandboxMessagesRow>()('sandbox_messages', [
  'id',
  'account_id',
  'delivery_id',
  'check_id',
  'channel',
  'recipient',
  'subject',
  'text_body',
  'html_body',
  'link',
  'attachments',
  'created_at',
]);

const INSERT_MESSAGE = insertStatement(SANDBOX_MESSAGES);
const MESSAGE_COLUMNS = columnList(SANDBOX_MESSAGES);

function toSandboxMessage(r: SandboxMessagesRow): SandboxMessage {
  return {
    id: r.id,
    deliveryId: r.delivery_id,
    checkId: r.check_id,
    channel: r.channel,
    recipient: r.recipient,
    subject: r.subject,
    text: r.text_body,
    html: r.html_body,
    link: r.link,
    attachments: JSON.parse(r.attachments) as string[],
    createdAt: Number(r.created_at),
  };
}

export async function insertSandboxMessage(q: Queryable, accountId: string, m: SandboxMessage): Promise<void> {
  await q.run(
    INSERT_MESSAGE,
    rowValues(SANDBOX_MESSAGES, {
      id: m.id,
      account_id: accountId,
      delivery_id: m.deliveryId,
      check_id: m.checkId,
      channel: m.channel,
      recipient: m.recipient,
      subject: m.subject,
      text_body: m.text,
      html_body: m.html,
      link: m.link,
      attachments: JSON.stringify(m.attachments),
      created_at: m.createdAt,
    }),
  );
}

/** The stored (sealed) text, HTML and link of every sandbox message, for re-sealing under a new data key. */
export async function allSandboxSealed(
  q: Queryable,
): Promise<{ id: string; text: string; html: string; link: string }[]> {
  return q.all<{ id: string; text: string; html: string; link: string }>(
    'SELECT id, text_body AS text, html_body AS html, link FROM sandbox_messages ORDER BY id',
  );
}

export async function storeSandboxSealed(
  q: Queryable,
  m: { id: string; text: string; html: string; link: string },
): Promise<void> {
  const s = sql`UPDATE sandbox_messages SET text_body = ${m.text}, html_body = ${m.html}, link = ${m.link} WHERE id = ${m.id}`;
  await q.run(s.text, s.params);
}

/** A page of one account's inbox, newest first. The inbox belongs to the account, not to an environment. */
export async function listSandboxMessages(
  q: Queryable,
  accountId: string,
  limit: number,
  offset: number,
): Promise<{ total: number; items: SandboxMessage[] }> {
  return pagedRows(q, {
    table: 'sandbox_messages',
    where: sql`account_id = ${accountId}`,
    searchColumns: [],
    page: { limit, offset, term: null },
    map: toSandboxMessage,
    columns: MESSAGE_COLUMNS,
  });
}

export async function findSandboxMessage(
  q: Queryable,
  accountId: string,
  id: string,
): Promise<SandboxMessage | undefined> {
  const s = sql`SELECT ${raw(MESSAGE_COLUMNS)} FROM sandbox_messages WHERE id = ${id} AND account_id = ${accountId}`;
  const row = await q.get<SandboxMessagesRow>(s.text, s.params);
  return row === undefined ? undefined : toSandboxMessage(row);
}
