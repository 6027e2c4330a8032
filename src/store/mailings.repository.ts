// The print-and-mail queue: mailings an operator prints, envelopes and dispatches.
import type { Environment, Owner } from '../domain/owner.ts';
import type { Queryable } from './db.ts';

export type MailingStatus = 'queued' | 'dispatched' | 'cancelled';

export interface Mailing {
  id: string;
  checkId: string;
  shippingTypeId: number;
  paperTypeId: number;
  toAddressId: string | null;
  status: MailingStatus;
  createdAt: number;
  updatedAt: number;
}

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
});

export async function insertMailing(q: Queryable, owner: Owner, m: Mailing): Promise<void> {
  await q.run(
    'INSERT INTO mailings (id, account_id, env, check_id, shipping_type_id, paper_type_id, to_address_id, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [m.id, owner.accountId, owner.env, m.checkId, m.shippingTypeId, m.paperTypeId, m.toAddressId, m.status, m.createdAt, m.updatedAt],
  );
}

export async function pendingMailingFor(q: Queryable, owner: Owner, checkId: string): Promise<Mailing | undefined> {
  const row = await q.get<MailingRow>("SELECT * FROM mailings WHERE check_id = ? AND account_id = ? AND env = ? AND status = 'queued'", [checkId, owner.accountId, owner.env]);
  return row === undefined ? undefined : toMailing(row);
}

export async function findMailing(q: Queryable, owner: Owner, id: string): Promise<Mailing | undefined> {
  const row = await q.get<MailingRow>('SELECT * FROM mailings WHERE id = ? AND account_id = ? AND env = ?', [id, owner.accountId, owner.env]);
  return row === undefined ? undefined : toMailing(row);
}

/** Operator view: any account's mailing, with its owner. */
export async function findMailingAnywhere(q: Queryable, id: string): Promise<{ mailing: Mailing; owner: Owner } | undefined> {
  const row = await q.get<MailingRow>('SELECT * FROM mailings WHERE id = ?', [id]);
  return row === undefined ? undefined : { mailing: toMailing(row), owner: { accountId: row.account_id, env: row.env } };
}

export async function listMailings(q: Queryable, status: MailingStatus | null): Promise<(Mailing & { owner: Owner })[]> {
  const rows =
    status === null
      ? await q.all<MailingRow>('SELECT * FROM mailings ORDER BY created_at, id')
      : await q.all<MailingRow>('SELECT * FROM mailings WHERE status = ? ORDER BY created_at, id', [status]);
  return rows.map((r) => ({ ...toMailing(r), owner: { accountId: r.account_id, env: r.env } }));
}

/** Moves a mailing on only from `queued`; 0 when another request got there first. */
export async function settleMailing(q: Queryable, id: string, status: 'dispatched' | 'cancelled', now: number): Promise<number> {
  return q.run("UPDATE mailings SET status = ?, updated_at = ? WHERE id = ? AND status = 'queued'", [status, now, id]);
}
