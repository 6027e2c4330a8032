// Files attached to a check, sent with its email: their records and, for sending, their bytes.
import type { AttachmentMeta } from '../domain/delivery.ts';
import type { Environment, Owner } from '../domain/owner.ts';
import type { Queryable } from './db.ts';
import { owned } from './owned-queries.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertStatement, rowValues } from './table.ts';

/** The attachments table as stored (migration 003). */
interface AttachmentsRow {
  id: string;
  account_id: string;
  env: Environment;
  check_id: string;
  filename: string;
  content_type: string;
  size: number;
  data: Buffer;
  created_at: number;
}

const ATTACHMENTS = defineTable<AttachmentsRow>()('attachments', [
  'id',
  'account_id',
  'env',
  'check_id',
  'filename',
  'content_type',
  'size',
  'data',
  'created_at',
]);

const INSERT_ATTACHMENT = insertStatement(ATTACHMENTS);
// Listing reads leave the file out: only sending needs its bytes.
const META_COLUMNS = raw(columnList(ATTACHMENTS, { except: ['account_id', 'env', 'data'] }));
const ALL_COLUMNS = raw(columnList(ATTACHMENTS));

type AttachmentRow = Omit<AttachmentsRow, 'account_id' | 'env' | 'data'>;

const toMeta = (r: AttachmentRow): AttachmentMeta => ({
  id: r.id,
  checkId: r.check_id,
  filename: r.filename,
  contentType: r.content_type,
  size: Number(r.size),
  createdAt: Number(r.created_at),
});

export async function insertAttachment(q: Queryable, owner: Owner, a: AttachmentMeta, data: Buffer): Promise<void> {
  await q.run(
    INSERT_ATTACHMENT,
    rowValues(ATTACHMENTS, {
      id: a.id,
      account_id: owner.accountId,
      env: owner.env,
      check_id: a.checkId,
      filename: a.filename,
      content_type: a.contentType,
      size: a.size,
      data,
      created_at: a.createdAt,
    }),
  );
}

export async function listAttachments(q: Queryable, owner: Owner, checkId: string): Promise<AttachmentMeta[]> {
  const s = sql`SELECT ${META_COLUMNS} FROM attachments WHERE check_id = ${checkId} AND ${owned(owner)} ORDER BY created_at, id`;
  const rows = await q.all<AttachmentRow>(s.text, s.params);
  return rows.map(toMeta);
}

export async function attachmentsWithData(
  q: Queryable,
  owner: Owner,
  checkId: string,
): Promise<(AttachmentMeta & { data: Buffer })[]> {
  const s = sql`SELECT ${ALL_COLUMNS} FROM attachments WHERE check_id = ${checkId} AND ${owned(owner)} ORDER BY created_at, id`;
  const rows = await q.all<AttachmentsRow>(s.text, s.params);
  return rows.map((r) => ({ ...toMeta(r), data: Buffer.from(r.data) }));
}

export async function deleteAttachment(q: Queryable, owner: Owner, checkId: string, id: string): Promise<number> {
  const s = sql`DELETE FROM attachments WHERE id = ${id} AND check_id = ${checkId} AND ${owned(owner)}`;
  return q.run(s.text, s.params);
}
