// The only SQL of approvals (migration 031): a company's policies, the rule each held check was
// written under, and its approvals. Every state change is a conditional UPDATE on the rule's row
// (its version and state), so racing approvals, edits and rejections serialize on that row.
import type { ApprovalPolicy, ListedApprovalState } from '../../domain/approvals/policy.ts';
import type { Owner } from '../../domain/owner.ts';
import type { Queryable } from '../db.ts';
import { owned } from '../owned-queries.ts';
import { inList, raw, sql } from '../sql.ts';
import { columnList, defineTable, insertRows, insertStatement, rowValues } from '../table.ts';

/** The approval_policies table as stored (migration 031): one row per company and bank account. */
interface PolicyRow {
  account_id: string;
  bank_account_id: string;
  threshold_cents: number;
  approvers: number;
  created_by: string;
  created_at: number;
  changed_by: string;
  changed_at: number;
}

const POLICIES = defineTable<PolicyRow>()('approval_policies', [
  'account_id',
  'bank_account_id',
  'threshold_cents',
  'approvers',
  'created_by',
  'created_at',
  'changed_by',
  'changed_at',
]);

const POLICY_COLUMNS = raw(columnList(POLICIES));
// Setting a policy again replaces its terms and who changed it; who made it first stays.
const SAVE_POLICY = insertStatement(POLICIES, {
  tail: `
     ON CONFLICT (account_id, bank_account_id) DO UPDATE SET
       threshold_cents = excluded.threshold_cents, approvers = excluded.approvers,
       changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
});

export interface StoredPolicy extends ApprovalPolicy {
  readonly changedBy: string;
  readonly changedAt: number;
}

export async function policies(q: Queryable, accountId: string): Promise<StoredPolicy[]> {
  const s = sql`SELECT ${POLICY_COLUMNS} FROM approval_policies WHERE account_id = ${accountId} ORDER BY bank_account_id`;
  const rows = await q.all<PolicyRow>(s.text, s.params);
  return rows.map((r) => ({
    bankAccountId: r.bank_account_id,
    thresholdCents: Number(r.threshold_cents),
    approvers: Number(r.approvers) === 2 ? 2 : 1,
    changedBy: r.changed_by,
    changedAt: Number(r.changed_at),
  }));
}

/** Sets a policy (insert or replace); `by` names who set it. */
export async function savePolicy(
  q: Queryable,
  accountId: string,
  policy: ApprovalPolicy,
  by: string,
  now: number,
): Promise<void> {
  await q.run(
    SAVE_POLICY,
    rowValues(POLICIES, {
      account_id: accountId,
      bank_account_id: policy.bankAccountId,
      threshold_cents: policy.thresholdCents,
      approvers: policy.approvers,
      created_by: by,
      created_at: now,
      changed_by: by,
      changed_at: now,
    }),
  );
}

export async function removePolicy(q: Queryable, accountId: string, bankAccountId: string): Promise<number> {
  const s = sql`DELETE FROM approval_policies WHERE account_id = ${accountId} AND bank_account_id = ${bankAccountId}`;
  return q.run(s.text, s.params);
}

export interface RuleRow {
  check_id: string;
  account_id: string;
  env: string;
  required: number;
  state: string;
  approved_count: number;
  version: number;
  created_by_kind: string;
  created_by_id: string;
  created_by_label: string;
  rejected_by: string | null;
  rejected_by_label: string | null;
  rejected_at: number | null;
  reason: string | null;
  created_at: number;
}

const RULES = defineTable<RuleRow>()('check_approval_rules', [
  'check_id',
  'account_id',
  'env',
  'required',
  'state',
  'approved_count',
  'version',
  'created_by_kind',
  'created_by_id',
  'created_by_label',
  'rejected_by',
  'rejected_by_label',
  'rejected_at',
  'reason',
  'created_at',
]);

const RULE_COLUMNS = raw(columnList(RULES));

export async function insertRules(q: Queryable, rows: readonly RuleRow[]): Promise<void> {
  if (rows.length > 0) await insertRows(q, RULES, rows);
}

/** A check's rule and approvals as stored. */
export interface StoredApproval {
  readonly rule: RuleRow;
  readonly approvals: readonly { personId: string; label: string; version: number; at: number }[];
}

/** The check_approvals table as stored (migration 031): who approved which version of a check. */
interface ApprovalRow {
  check_id: string;
  person_id: string;
  person_label: string;
  version: number;
  at: number;
}

const APPROVALS = defineTable<ApprovalRow>()('check_approvals', [
  'check_id',
  'person_id',
  'person_label',
  'version',
  'at',
]);
const INSERT_APPROVAL = insertStatement(APPROVALS);
const APPROVAL_COLUMNS = raw(columnList(APPROVALS));

/** The rules and approvals of these checks (a check with none has no entry). */
export async function approvalsOf(
  q: Queryable,
  owner: Owner,
  ids: readonly string[],
): Promise<Map<string, StoredApproval>> {
  const out = new Map<string, StoredApproval>();
  if (ids.length === 0) return out;
  const r = sql`SELECT ${RULE_COLUMNS} FROM check_approval_rules WHERE check_id IN ${inList(ids)} AND ${owned(owner)}`;
  const rules = await q.all<RuleRow>(r.text, r.params);
  if (rules.length === 0) return out;
  const a = sql`SELECT ${APPROVAL_COLUMNS} FROM check_approvals WHERE check_id IN ${inList(rules.map((x) => x.check_id))} ORDER BY at, person_id`;
  const approvals = await q.all<ApprovalRow>(a.text, a.params);
  for (const rule of rules) {
    out.set(rule.check_id, {
      rule: { ...rule, version: Number(rule.version), required: Number(rule.required) },
      approvals: approvals
        .filter((x) => x.check_id === rule.check_id && Number(x.version) === Number(rule.version))
        .map((x) => ({ personId: x.person_id, label: x.person_label, version: Number(x.version), at: Number(x.at) })),
    });
  }
  return out;
}

/** The approvals of one version of a check's rule, oldest first (GET /checks/{id} of a held check). */
export async function approvalsOfVersion(
  q: Queryable,
  checkId: string,
  version: number,
): Promise<{ label: string; at: number }[]> {
  const s = sql`SELECT person_label, at FROM check_approvals WHERE check_id = ${checkId} AND version = ${version} ORDER BY at, person_id`;
  const rows = await q.all<Pick<ApprovalRow, 'person_label' | 'at'>>(s.text, s.params);
  return rows.map((r) => ({ label: r.person_label, at: Number(r.at) }));
}

/**
 * Counts one approval of the version the approver saw: 1 when counted, 0 when the check changed,
 * was decided or rejected meanwhile. The row's lock (PostgreSQL) or the one writer (SQLite) makes
 * racing approvers count one after the other.
 */
export async function countApproval(q: Queryable, owner: Owner, checkId: string, version: number): Promise<number> {
  const s = sql`UPDATE check_approval_rules SET approved_count = approved_count + 1,
      state = CASE WHEN approved_count + 1 >= required THEN 'approved' ELSE 'pending' END
    WHERE check_id = ${checkId} AND ${owned(owner)} AND version = ${version} AND state = 'pending'`;
  return q.run(s.text, s.params);
}

export async function insertApproval(
  q: Queryable,
  checkId: string,
  personId: string,
  label: string,
  version: number,
  at: number,
): Promise<void> {
  await q.run(
    INSERT_APPROVAL,
    rowValues(APPROVALS, { check_id: checkId, person_id: personId, person_label: label, version, at }),
  );
}

export async function reject(
  q: Queryable,
  owner: Owner,
  checkId: string,
  version: number,
  by: { id: string; label: string },
  reason: string,
  at: number,
): Promise<number> {
  const s = sql`UPDATE check_approval_rules SET state = 'rejected', rejected_by = ${by.id},
      rejected_by_label = ${by.label}, rejected_at = ${at}, reason = ${reason}
    WHERE check_id = ${checkId} AND ${owned(owner)} AND version = ${version} AND state = 'pending'`;
  return q.run(s.text, s.params);
}

/**
 * Sends an approved or pending check back to pending with no approvals (an edit changed what was
 * approved): the version moves on, so an approval of what was there before no longer counts.
 */
export async function backToPending(q: Queryable, owner: Owner, checkId: string): Promise<number> {
  const s = sql`UPDATE check_approval_rules SET state = 'pending', approved_count = 0, version = version + 1
    WHERE check_id = ${checkId} AND ${owned(owner)} AND state <> 'rejected'`;
  const moved = await q.run(s.text, s.params);
  if (moved > 0) {
    const approvals = sql`DELETE FROM check_approvals WHERE check_id = ${checkId}`;
    await q.run(approvals.text, approvals.params);
  }
  return moved;
}

export async function removeFor(q: Queryable, checkId: string): Promise<void> {
  const approvals = sql`DELETE FROM check_approvals WHERE check_id = ${checkId}`;
  await q.run(approvals.text, approvals.params);
  const rule = sql`DELETE FROM check_approval_rules WHERE check_id = ${checkId}`;
  await q.run(rule.text, rule.params);
}

/** The ids of the owner's checks in `state` (pending: still new), newest first, and how many there are. */
export async function checkIdsIn(
  q: Queryable,
  owner: Owner,
  state: ListedApprovalState,
  limit: number,
  offset: number,
): Promise<{ total: number; ids: string[] }> {
  // A pending check that was voided or deleted no longer waits for anyone.
  const where =
    state === 'pending'
      ? sql`${owned(owner, { alias: 'r' })} AND r.state = ${state} AND c.status = 0`
      : sql`${owned(owner, { alias: 'r' })} AND r.state = ${state}`;
  const count = sql`SELECT COUNT(*) AS n FROM check_approval_rules r JOIN checks c ON c.id = r.check_id WHERE ${where}`;
  const total = Number((await q.get<{ n: number }>(count.text, count.params))?.n ?? 0);
  const page = sql`SELECT r.check_id FROM check_approval_rules r JOIN checks c ON c.id = r.check_id WHERE ${where}
    ORDER BY r.created_at DESC, r.check_id DESC LIMIT ${limit} OFFSET ${offset}`;
  const rows = await q.all<{ check_id: string }>(page.text, page.params);
  return { total, ids: rows.map((r) => r.check_id) };
}

/** How many of the owner's checks wait for approval (the panel's menu shows it to approvers). */
export async function countPending(q: Queryable, owner: Owner): Promise<number> {
  const s = sql`SELECT COUNT(*) AS n FROM check_approval_rules r JOIN checks c ON c.id = r.check_id
    WHERE ${owned(owner, { alias: 'r' })} AND r.state = 'pending' AND c.status = 0`;
  return Number((await q.get<{ n: number }>(s.text, s.params))?.n ?? 0);
}

/** Whether a bank account (of either environment) belongs to the company. */
export async function companyHasBankAccount(q: Queryable, accountId: string, bankAccountId: string): Promise<boolean> {
  const s = sql`SELECT id FROM bank_accounts WHERE id = ${bankAccountId} AND account_id = ${accountId}`;
  const row = await q.get<{ id: string }>(s.text, s.params);
  return row !== undefined;
}

/** The company's bank accounts of both environments, for choosing one a rule is for. */
export async function companyBankAccounts(
  q: Queryable,
  accountId: string,
): Promise<{ id: string; name: string; env: string }[]> {
  const s = sql`SELECT id, name, env FROM bank_accounts WHERE account_id = ${accountId} AND deleted_at IS NULL ORDER BY env, name, id`;
  return q.all<{ id: string; name: string; env: string }>(s.text, s.params);
}

/** A person of the company by email, with their membership (the command line's "who sets it"). */
export async function memberByEmail(
  q: Queryable,
  accountId: string,
  email: string,
): Promise<{ id: string; name: string; email: string; role: string; approves: number } | undefined> {
  const s = sql`SELECT p.id, p.name, p.email, m.role, m.approves FROM people p
       JOIN memberships m ON m.person_id = p.id WHERE m.account_id = ${accountId} AND p.email = ${email.trim().toLowerCase()}`;
  return q.get(s.text, s.params);
}

/** Every person of the company with their role (approvers are chosen from them by the roles table). */
export async function members(
  q: Queryable,
  accountId: string,
): Promise<{ id: string; name: string; email: string; role: string; approves: number }[]> {
  const s = sql`SELECT p.id, p.name, p.email, m.role, m.approves FROM people p
       JOIN memberships m ON m.person_id = p.id WHERE m.account_id = ${accountId} ORDER BY p.email`;
  return q.all(s.text, s.params);
}

/** The person who made an API key (migration 027), or null for a key made before people existed. */
export async function keyAuthor(q: Queryable, keyId: string): Promise<string | null> {
  const s = sql`SELECT created_by FROM api_keys WHERE id = ${keyId}`;
  const row = await q.get<{ created_by: string | null }>(s.text, s.params);
  return row?.created_by ?? null;
}
