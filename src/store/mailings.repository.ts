// The print-and-mail queue: mailings an operator prints, envelopes and dispatches.
import type { Environment, Owner } from '../domain/owner.ts';
import type { Queryable } from './db.ts';
import type { Mailing, MailingStatus } from '../domain/mailing.ts';
import { owned } from './owned-queries.ts';
import { inList, raw, sql } from './sql.ts';
import { columnList, defineTable, insertStatement, rowValues } from './table.ts';

/** The mailings table as stored (migrations 004, 010 and 024); flags are 0 or 1. */
interface MailingRow {
  id: string;
  account_id: string;
  env: Environment;
  check_id: string;
  shipping_type_id: number;
  paper_type_id: number;
  to_address_id: string | null;
  status: MailingStatus;
  created_at: number;
  updated_at: number;
  inform_type_id: number | null;
  enable_sms_inform: number;
  enable_email_inform: number;
  payee_email: string | null;
  payee_phone: string | null;
  shipping_to_custom_address: number;
  from_address_id: string | null;
  custom_shipping_type_id: number | null;
}

const MAILINGS = defineTable<MailingRow>()('mailings', [
  'id',
  'account_id',
  'env',
  'check_id',
  'shipping_type_id',
  'paper_type_id',
  'to_address_id',
  'status',
  'created_at',
  'updated_at',
  'inform_type_id',
  'enable_sms_inform',
  'enable_email_inform',
  'payee_email',
  'payee_phone',
  'shipping_to_custom_address',
  'from_address_id',
  'custom_shipping_type_id',
]);

const INSERT_MAILING = insertStatement(MAILINGS);
const READ_COLUMNS = raw(columnList(MAILINGS));
// The operator's lists: every account's mailings, so no owner filter, oldest first.
// A queued mailing whose check a policy still holds (quickpay writes both at once) waits out of
// the operator's sight until the check is approved (docs/approvals.md).
const NOT_WAITING = raw(
  `NOT (status = 'queued' AND EXISTS (SELECT 1 FROM check_approval_rules r WHERE r.check_id = mailings.check_id AND r.state <> 'approved'))`,
);

const toMailing = (r: MailingRow): Mailing => ({
  id: r.id,
  checkId: r.check_id,
  shippingTypeId: Number(r.shipping_type_id),
  paperTypeId: Number(r.paper_type_id),
  toAddressId: r.to_address_id,
  status: r.status,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
  informTypeId: r.inform_type_id === null ? null : Number(r.inform_type_id),
  enableSmsInform: Number(r.enable_sms_inform) === 1,
  enableEmailInform: Number(r.enable_email_inform) === 1,
  payeeEmail: r.payee_email,
  payeePhone: r.payee_phone,
  shippingToCustomAddress: Number(r.shipping_to_custom_address) === 1,
  fromAddressId: r.from_address_id,
  customShippingTypeId: r.custom_shipping_type_id === null ? null : Number(r.custom_shipping_type_id),
});

export async function insertMailing(q: Queryable, owner: Owner, m: Mailing): Promise<void> {
  await q.run(
    INSERT_MAILING,
    rowValues(MAILINGS, {
      id: m.id,
      account_id: owner.accountId,
      env: owner.env,
      check_id: m.checkId,
      shipping_type_id: m.shippingTypeId,
      paper_type_id: m.paperTypeId,
      to_address_id: m.toAddressId,
      status: m.status,
      created_at: m.createdAt,
      updated_at: m.updatedAt,
      inform_type_id: m.informTypeId,
      enable_sms_inform: m.enableSmsInform ? 1 : 0,
      enable_email_inform: m.enableEmailInform ? 1 : 0,
      payee_email: m.payeeEmail,
      payee_phone: m.payeePhone,
      shipping_to_custom_address: m.shippingToCustomAddress ? 1 : 0,
      from_address_id: m.fromAddressId,
      custom_shipping_type_id: m.customShippingTypeId,
    }),
  );
}

export async function pendingMailingFor(q: Queryable, owner: Owner, checkId: string): Promise<Mailing | undefined> {
  const s = sql`SELECT ${READ_COLUMNS} FROM mailings WHERE check_id = ${checkId} AND ${owned(owner)} AND status = 'queued'`;
  const row = await q.get<MailingRow>(s.text, s.params);
  return row === undefined ? undefined : toMailing(row);
}

/** Which of these checks have a mailing queued (pendingMailingFor for many, in one statement). */
export async function checksWithPendingMailing(
  q: Queryable,
  owner: Owner,
  checkIds: readonly string[],
): Promise<Set<string>> {
  if (checkIds.length === 0) return new Set();
  const s = sql`SELECT check_id FROM mailings WHERE check_id IN ${inList(checkIds)} AND ${owned(owner)} AND status = 'queued'`;
  const rows = await q.all<{ check_id: string }>(s.text, s.params);
  return new Set(rows.map((r) => r.check_id));
}

/** The latest mailing of each of these checks that has one (a check is mailed at most once at a time). */
export async function latestMailingsFor(
  q: Queryable,
  owner: Owner,
  checkIds: readonly string[],
): Promise<Map<string, Mailing>> {
  const found = new Map<string, Mailing>();
  if (checkIds.length === 0) return found;
  const s = sql`SELECT ${READ_COLUMNS} FROM mailings WHERE check_id IN ${inList(checkIds)} AND ${owned(owner)} ORDER BY created_at, id`;
  // Oldest first, so the latest of each check is the one that stays in the map.
  for (const row of await q.all<MailingRow>(s.text, s.params)) found.set(row.check_id, toMailing(row));
  return found;
}

export async function findMailing(q: Queryable, owner: Owner, id: string): Promise<Mailing | undefined> {
  const s = sql`SELECT ${READ_COLUMNS} FROM mailings WHERE id = ${id} AND ${owned(owner)}`;
  const row = await q.get<MailingRow>(s.text, s.params);
  return row === undefined ? undefined : toMailing(row);
}

/** Operator view: any account's mailing, with its owner. */
export async function findMailingAnywhere(
  q: Queryable,
  id: string,
): Promise<{ mailing: Mailing; owner: Owner } | undefined> {
  const s = sql`SELECT ${READ_COLUMNS} FROM mailings WHERE id = ${id}`;
  const row = await q.get<MailingRow>(s.text, s.params);
  return row === undefined
    ? undefined
    : { mailing: toMailing(row), owner: { accountId: row.account_id, env: row.env } };
}

export async function listMailings(
  q: Queryable,
  status: MailingStatus | null,
): Promise<(Mailing & { owner: Owner })[]> {
  const s =
    status === null
      ? sql`SELECT ${READ_COLUMNS} FROM mailings WHERE ${NOT_WAITING} ORDER BY created_at, id`
      : sql`SELECT ${READ_COLUMNS} FROM mailings WHERE status = ${status} AND ${NOT_WAITING} ORDER BY created_at, id`;
  const rows = await q.all<MailingRow>(s.text, s.params);
  return rows.map((r) => ({ ...toMailing(r), owner: { accountId: r.account_id, env: r.env } }));
}

/** Moves a mailing on only from `queued`; 0 when another request got there first. */
export async function settleMailing(
  q: Queryable,
  id: string,
  status: 'dispatched' | 'cancelled',
  now: number,
): Promise<number> {
  const s = sql`UPDATE mailings SET status = ${status}, updated_at = ${now} WHERE id = ${id} AND status = 'queued'`;
  return q.run(s.text, s.params);
}
