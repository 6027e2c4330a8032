// Approvals (docs/approvals.md): the rule a check is written under, the gate every channel a check
// leaves by passes, and what an edit or a delete does to a check's approvals. Approving and
// rejecting, a person's act, is decisions.service.ts. Every step is written in the transaction of
// the act it belongs to, with its audit record and webhook event.
import {
  approvalsRequired,
  type CheckApproval,
  heldWords,
  mayLeave,
  type ListedApprovalState,
  NOT_REQUIRED,
  policyFor,
} from '../../domain/approvals/policy.ts';
import { actorColumns } from '../../domain/audit.ts';
import type { Check, NewCheck } from '../../domain/check.ts';
import type { Owner } from '../../domain/owner.ts';
import { validationError } from '../../errors.ts';
import * as store from '../../store/approvals/approvals.repository.ts';
import * as checks from '../../store/checks/checks.repository.ts';
import type { Queryable } from '../../store/db.ts';
import { principalIn, recordFor } from '../audit.service.ts';
import type { ServiceContext } from '../context.ts';
import { checkEventData, emit, newCheckEventData } from '../events.ts';
import * as payeeStore from '../../store/payees.repository.ts';
import { newsOf, tellApprovers } from './approval-news.service.ts';

type CheckKey = Pick<Check, 'id' | 'serialNumber'>;

function approvalFrom(stored: store.StoredApproval | undefined): CheckApproval {
  if (stored === undefined) return NOT_REQUIRED;
  const { rule } = stored;
  return {
    status: rule.state === 'approved' ? 'approved' : rule.state === 'rejected' ? 'rejected' : 'pending',
    required: rule.required,
    approvals: stored.approvals.map((a) => ({ by: a.label, at: a.at })),
    rejectedBy: rule.rejected_by_label,
    rejectedAt: rule.rejected_at === null ? null : Number(rule.rejected_at),
    reason: rule.reason,
  };
}

/** Each check's approval (`not_required` for a check no policy covers). */
export async function approvalsFor(
  q: Queryable,
  owner: Owner,
  ids: readonly string[],
): Promise<Map<string, CheckApproval>> {
  const stored = await store.approvalsOf(q, owner, ids);
  return new Map(ids.map((id) => [id, approvalFrom(stored.get(id))]));
}

/** A check's approval, with who wrote it and the version an approver sees (the panel's queue). */
export interface ApprovalView extends CheckApproval {
  readonly version: number;
  readonly writtenBy: string;
  readonly writtenById: string;
}

export async function approvalViews(
  q: Queryable,
  owner: Owner,
  ids: readonly string[],
): Promise<Map<string, ApprovalView>> {
  const stored = await store.approvalsOf(q, owner, ids);
  const out = new Map<string, ApprovalView>();
  for (const [id, s] of stored)
    out.set(id, {
      ...approvalFrom(s),
      version: s.rule.version,
      writtenBy: s.rule.created_by_label,
      writtenById: s.rule.created_by_id,
    });
  return out;
}

/**
 * The gate of every channel a check leaves by (print, email, mail, the payee's download): refuses
 * the whole request, naming the first check held and what it lacks. Called inside the transaction
 * that moves the checks, after their rows are locked, so an approval not yet committed counts as
 * missing.
 */
export async function refuseHeld(q: Queryable, owner: Owner, list: readonly CheckKey[]): Promise<void> {
  if (list.length === 0) return;
  const approvals = await approvalsFor(
    q,
    owner,
    list.map((c) => c.id),
  );
  for (const check of list) {
    const approval = approvals.get(check.id) ?? NOT_REQUIRED;
    if (!mayLeave(approval)) throw validationError(heldWords(check.serialNumber, approval));
  }
}

/** Whether one check may leave now (the PDF stamps a held check instead of refusing it). */
export async function isHeld(q: Queryable, owner: Owner, checkId: string): Promise<boolean> {
  const approval = (await approvalsFor(q, owner, [checkId])).get(checkId) ?? NOT_REQUIRED;
  return !mayLeave(approval);
}

function creatorOf(owner: Owner): { kind: string; id: string; label: string } {
  const who = principalIn(owner);
  if (who === null) return { kind: 'system', id: '', label: 'system' };
  const columns = actorColumns(who.actor);
  return { kind: columns.kind, id: columns.id, label: columns.label };
}

/**
 * New checks, in the transaction that writes them: each check a policy covers gets the rule it is
 * written under, pending. Returns the ids held.
 */
export async function holdNewChecks(
  tx: Queryable,
  owner: Owner,
  written: readonly NewCheck[],
  now: number,
): Promise<Set<string>> {
  const policies = await store.policies(tx, owner.accountId);
  if (policies.length === 0) return new Set();
  const creator = creatorOf(owner);
  const rows: store.RuleRow[] = [];
  for (const check of written) {
    const required = approvalsRequired(policyFor(policies, check.bankAccountId), check.amountCents);
    if (required > 0) rows.push(ruleRow(owner, check.id, required, creator, now));
  }
  await store.insertRules(tx, rows);
  // A set, not rows.some per check: a 500-check batch under a policy would compare 250,000 pairs.
  const heldIds = new Set(rows.map((r) => r.check_id));
  const held = written.filter((c) => heldIds.has(c.id));
  await emit(
    tx,
    owner,
    held.map((c) => ({ type: 'check.approval_required' as const, data: newCheckEventData(c) })),
    now,
  );
  const payees = await payeeStore.findPayees(tx, owner, [
    ...new Set(held.map((c) => c.payeeId).filter((id): id is string => id !== null)),
  ]);
  await tellApprovers(
    tx,
    owner,
    await writerPerson(tx, { created_by_kind: creator.kind, created_by_id: creator.id }),
    held.map((c) => ({
      serialNumber: c.serialNumber,
      amountCents: c.amountCents,
      payee: c.payeeId === null ? '' : (payees.get(c.payeeId)?.name ?? ''),
    })),
    now,
  );
  return new Set(held.map((c) => c.id));
}

function ruleRow(
  owner: Owner,
  checkId: string,
  required: number,
  creator: { kind: string; id: string; label: string },
  now: number,
): store.RuleRow {
  return {
    check_id: checkId,
    account_id: owner.accountId,
    env: owner.env,
    required,
    state: 'pending',
    approved_count: 0,
    version: 1,
    created_by_kind: creator.kind,
    created_by_id: creator.id,
    created_by_label: creator.label,
    rejected_by: null,
    rejected_by_label: null,
    rejected_at: null,
    reason: null,
    created_at: now,
  };
}

/** Refuses an edit of a rejected check: it can only be voided or deleted. */
export async function refuseEditIfRejected(q: Queryable, owner: Owner, check: CheckKey): Promise<void> {
  const approval = (await approvalsFor(q, owner, [check.id])).get(check.id) ?? NOT_REQUIRED;
  if (approval.status === 'rejected')
    throw validationError(`Check ${check.serialNumber} was rejected: it can only be voided or deleted.`);
}

const APPROVED_FIELDS = ['amountCents', 'payeeId', 'issueDate', 'bankAccountId', 'noAmount', 'noPayee'] as const;

/**
 * After an edit, in its transaction (the check's row is locked): a change of what an approver
 * approved sends the check back to pending with its approvals cleared; a check no rule held yet is
 * held when today's policy covers what it now says.
 */
export async function afterEdit(tx: Queryable, owner: Owner, before: Check, after: Check, now: number): Promise<void> {
  if (APPROVED_FIELDS.every((field) => before[field] === after[field])) return;
  const existing = await store.approvalsOf(tx, owner, [after.id]);
  if (existing.has(after.id)) {
    if ((await store.backToPending(tx, owner, after.id)) > 0) {
      const writer = existing.get(after.id)?.rule;
      await tellApprovers(
        tx,
        owner,
        writer?.created_by_kind === 'person' ? writer.created_by_id : null,
        [newsOf(after)],
        now,
      );
      await recordFor(
        tx,
        owner,
        [
          {
            action: 'check.approval_reset',
            objectType: 'check',
            objectId: after.id,
            changes: [{ field: 'approval', old: existing.get(after.id)?.rule.state ?? '', new: 'pending' }],
          },
        ],
        now,
      );
    }
    return;
  }
  const policies = await store.policies(tx, owner.accountId);
  const required = approvalsRequired(policyFor(policies, after.bankAccountId), after.amountCents);
  if (required === 0) return;
  const creator = creatorOf(owner);
  await store.insertRules(tx, [ruleRow(owner, after.id, required, creator, now)]);
  await emit(tx, owner, [{ type: 'check.approval_required', data: checkEventData(after) }], now);
  await tellApprovers(tx, owner, creator.kind === 'person' ? creator.id : null, [newsOf(after)], now);
}

/** A deleted check takes its approvals with it. */
export async function forgetCheck(tx: Queryable, checkId: string): Promise<void> {
  await store.removeFor(tx, checkId);
}

/**
 * The person who wrote a check: its writer when a person, or the person who made the API key that
 * wrote it (an owner's own key writing a check does not let them approve it).
 */
export async function writerPerson(
  q: Queryable,
  rule: Pick<store.RuleRow, 'created_by_kind' | 'created_by_id'>,
): Promise<string | null> {
  if (rule.created_by_kind === 'person') return rule.created_by_id;
  if (rule.created_by_kind === 'api-key') return store.keyAuthor(q, rule.created_by_id);
  return null;
}

/** How many checks wait for approval in one environment of the company. */
export function waitingCount(q: Queryable, owner: Owner): Promise<number> {
  return store.countPending(q, owner);
}

/** GET /checks?approval=…: a page of the checks in one approval state, newest first. */
export async function listByApproval(
  ctx: ServiceContext,
  owner: Owner,
  state: ListedApprovalState,
  perPage: number,
  page: number,
): Promise<{ total: number; checks: Check[] }> {
  const { total, ids } = await store.checkIdsIn(ctx.db, owner, state, perPage, (page - 1) * perPage);
  return { total, checks: await checks.checksInListOrder(ctx.db, ids) };
}
