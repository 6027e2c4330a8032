// The print-and-mail queue: mailings an operator prints, envelopes and dispatches.
import type { Environment, Owner } from '../domain/owner.ts';
import type { Queryable } from './db.ts';
import type { Mailing, MailingStatus } from '../domain/mailing.ts';

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
    `INSERT INTO mailings (id, account_id, env, check_id, shipping_type_id, paper_type_id, to_address_id, status, created_at, updated_at,
       inform_type_id, enable_sms_inform, enable_email_inform, payee_email, payee_phone, shipping_to_custom_address, from_address_id, custom_shipping_type_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      m.id,
      owner.accountId,
      owner.env,
      m.checkId,
      m.shippingTypeId,
      m.paperTypeId,
      m.toAddressId,
      m.status,
      m.createdAt,
      m.updatedAt,
      m.informTypeId,
      m.enableSmsInform ? 1 : 0,
      m.enableEmailInform ? 1 : 0,
      m.payeeEmail,
      m.payeePhone,
      m.shippingToCustomAddress ? 1 : 0,
      m.fromAddressId,
      m.customShippingTypeId,
    ],
  );
}

export async function pendingMailingFor(q: Queryable, owner: Owner, checkId: string): Promise<Mailing | undefined> {
  const row = await q.get<MailingRow>(
    "SELECT * FROM mailings WHERE check_id = ? AND account_id = ? AND env = ? AND status = 'queued'",
    [checkId, owner.accountId, owner.env],
  );
  return row === undefined ? undefined : toMailing(row);
}

/** Which of these checks have a mailing queued (pendingMailingFor for many, in one statement). */
export async function checksWithPendingMailing(
  q: Queryable,
  owner: Owner,
  checkIds: readonly string[],
): Promise<Set<string>> {
  if (checkIds.length === 0) return new Set();
  const rows = await q.all<{ check_id: string }>(
    `SELECT check_id FROM mailings WHERE check_id IN (${checkIds.map(() => '?').join(', ')}) AND account_id = ? AND env = ? AND status = 'queued'`,
    [...checkIds, owner.accountId, owner.env],
  );
  return new Set(rows.map((r) => r.check_id));
}

export async function findMailing(q: Queryable, owner: Owner, id: string): Promise<Mailing | undefined> {
  const row = await q.get<MailingRow>('SELECT * FROM mailings WHERE id = ? AND account_id = ? AND env = ?', [
    id,
    owner.accountId,
    owner.env,
  ]);
  return row === undefined ? undefined : toMailing(row);
}

/** Operator view: any account's mailing, with its owner. */
export async function findMailingAnywhere(
  q: Queryable,
  id: string,
): Promise<{ mailing: Mailing; owner: Owner } | undefined> {
  const row = await q.get<MailingRow>('SELECT * FROM mailings WHERE id = ?', [id]);
  return row === undefined
    ? undefined
    : { mailing: toMailing(row), owner: { accountId: row.account_id, env: row.env } };
}

export async function listMailings(
  q: Queryable,
  status: MailingStatus | null,
): Promise<(Mailing & { owner: Owner })[]> {
  const rows =
    status === null
      ? await q.all<MailingRow>('SELECT * FROM mailings ORDER BY created_at, id')
      : await q.all<MailingRow>('SELECT * FROM mailings WHERE status = ? ORDER BY created_at, id', [status]);
  return rows.map((r) => ({ ...toMailing(r), owner: { accountId: r.account_id, env: r.env } }));
}

/** Moves a mailing on only from `queued`; 0 when another request got there first. */
export async function settleMailing(
  q: Queryable,
  id: string,
  status: 'dispatched' | 'cancelled',
  now: number,
): Promise<number> {
  return q.run("UPDATE mailings SET status = ?, updated_at = ? WHERE id = ? AND status = 'queued'", [status, now, id]);
}
