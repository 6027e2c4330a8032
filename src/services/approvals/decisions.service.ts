// Approving and rejecting checks (docs/approvals.md): a person's act in the panel, never an API
// key's; all or none of a batch; each check locked as an edit, a void and a print lock it, so a
// decision never releases a version of the check its approver did not see.
import type { Actor } from '../../domain/actor.ts';
import { actorColumns } from '../../domain/audit.ts';
import type { Check } from '../../domain/check.ts';
import type { Owner } from '../../domain/owner.ts';
import { may } from '../../domain/people/roles.ts';
import { AppError, notFound, validationError } from '../../errors.ts';
import * as store from '../../store/approvals/approvals.repository.ts';
import * as checks from '../../store/checks/checks.repository.ts';
import * as mailings from '../../store/mailings.repository.ts';
import { type Queryable, UniqueViolation } from '../../store/db.ts';
import { principalIn, recordFor } from '../audit.service.ts';
import type { ServiceContext } from '../context.ts';
import { checkEventData, emit } from '../events.ts';
import { writerPerson } from './approvals.service.ts';
import { type NewsCheck, newsOf, tellWriter } from './approval-news.service.ts';

/** The writers (people) of decided checks, each with their checks: one email each. */
function byWriter(decided: readonly { check: Check; rule: store.RuleRow }[]): Map<string, NewsCheck[]> {
  const out = new Map<string, NewsCheck[]>();
  for (const { check, rule } of decided) {
    if (rule.created_by_kind !== 'person') continue;
    out.set(rule.created_by_id, [...(out.get(rule.created_by_id) ?? []), newsOf(check)]);
  }
  return out;
}

/** What an approver decides on: a check and the version of it they saw. */
export interface Decision {
  readonly checkId: string;
  readonly version: number;
}

function approverOf(owner: Owner): Extract<Actor, { kind: 'person' }> {
  const who = principalIn(owner);
  // Approving is a person's act: a leaked API key can write checks but never release them.
  if (who === null || who.actor.kind !== 'person')
    throw new AppError('forbidden', 'Checks are approved by a person signed in to the panel, never by an API key.');
  const actor = who.actor;
  if (!may({ role: actor.role, approves: actor.approves }, 'checks.approve'))
    throw new AppError(
      'forbidden',
      "Your role can't approve or reject checks. An admin of this company can change it.",
    );
  return actor;
}

async function lockForDecision(
  tx: Queryable,
  owner: Owner,
  decision: Decision,
  approver: Extract<Actor, { kind: 'person' }>,
): Promise<{ check: Check; stored: store.StoredApproval }> {
  const check = await checks.findCheck(tx, owner, decision.checkId);
  if (check === undefined) throw notFound('Check');
  // The check's row first (as an edit, a void and a print take it): a void or edit racing this
  // decision either finished before it (and is seen) or waits for it.
  if (check.status !== 0 || !(await checks.lockCheck(tx, owner, check.id, 0)))
    throw validationError(`Check ${check.serialNumber} is no longer new: nothing to approve.`);
  const stored = (await store.approvalsOf(tx, owner, [check.id])).get(check.id);
  if (stored === undefined) throw validationError(`Check ${check.serialNumber} needs no approval.`);
  if (stored.rule.state !== 'pending')
    throw validationError(`Check ${check.serialNumber} is already ${stored.rule.state}.`);
  if (stored.rule.version !== decision.version)
    throw validationError(`Check ${check.serialNumber} was changed after you opened it; review it again.`);
  if ((await writerPerson(tx, stored.rule)) === approver.personId)
    throw new AppError(
      'forbidden',
      `You wrote check ${check.serialNumber}, so you can't approve or reject it: another approver must.`,
    );
  return { check, stored };
}

/** Approves checks, all or none; each counts once per person. Returns the ids now fully approved. */
export async function approveChecks(
  ctx: ServiceContext,
  owner: Owner,
  decisions: readonly Decision[],
): Promise<string[]> {
  const approver = approverOf(owner);
  const now = ctx.now();
  try {
    return await ctx.db.transaction(async (tx) => {
      const done: string[] = [];
      const completed: { check: Check; rule: store.RuleRow }[] = [];
      for (const decision of decisions) {
        const { check, stored } = await lockForDecision(tx, owner, decision, approver);
        if (stored.approvals.some((a) => a.personId === approver.personId))
          throw validationError(`You have already approved check ${check.serialNumber}.`);
        if ((await store.countApproval(tx, owner, check.id, decision.version)) !== 1)
          throw validationError(`Check ${check.serialNumber} was changed after you opened it; review it again.`);
        await store.insertApproval(
          tx,
          check.id,
          approver.personId,
          actorColumns(approver).label,
          decision.version,
          now,
        );
        const count = stored.approvals.length + 1;
        const complete = count >= stored.rule.required;
        await recordFor(
          tx,
          owner,
          [
            {
              action: 'check.approve',
              objectType: 'check',
              objectId: check.id,
              changes: [
                { field: 'approvals', old: String(stored.approvals.length), new: String(count) },
                { field: 'approval', old: 'pending', new: complete ? 'approved' : 'pending' },
              ],
            },
          ],
          now,
        );
        if (complete) {
          await emit(tx, owner, [{ type: 'check.approved', data: checkEventData(check) }], now);
          done.push(check.id);
          completed.push({ check, rule: stored.rule });
        }
      }
      for (const [writer, list] of byWriter(completed))
        await tellWriter(tx, owner, writer, 'approved', list, null, now);
      return done;
    });
  } catch (error) {
    // The same person approving twice at once: the key of check_approvals lets one through.
    if (error instanceof UniqueViolation) throw validationError('You have already approved this check.');
    throw error;
  }
}

/** Rejects checks with a reason, all or none: a rejected check can only be voided or deleted. */
export async function rejectChecks(
  ctx: ServiceContext,
  owner: Owner,
  decisions: readonly Decision[],
  reason: string,
): Promise<void> {
  const approver = approverOf(owner);
  const why = reason.trim();
  if (why === '') throw validationError('The reason field is required.');
  if (why.length > 500) throw validationError('The reason field must not be greater than 500 characters.');
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const rejected: { check: Check; rule: store.RuleRow }[] = [];
    for (const decision of decisions) {
      const { check, stored } = await lockForDecision(tx, owner, decision, approver);
      rejected.push({ check, rule: stored.rule });
      // A mailing that waited for the approval (quickpay) will never be sent: cancelled with it.
      const waiting = await mailings.pendingMailingFor(tx, owner, check.id);
      if (waiting !== undefined) await mailings.settleMailing(tx, waiting.id, 'cancelled', now);
      const by = { id: approver.personId, label: actorColumns(approver).label };
      if ((await store.reject(tx, owner, check.id, decision.version, by, why, now)) !== 1)
        throw validationError(`Check ${check.serialNumber} was changed after you opened it; review it again.`);
      await recordFor(
        tx,
        owner,
        [
          {
            action: 'check.reject',
            objectType: 'check',
            objectId: check.id,
            changes: [
              { field: 'approval', old: 'pending', new: 'rejected' },
              { field: 'reason', old: null, new: why },
            ],
          },
        ],
        now,
      );
      await emit(tx, owner, [{ type: 'check.rejected', data: { ...checkEventData(check), reason: why } }], now);
    }
    for (const [writer, list] of byWriter(rejected)) await tellWriter(tx, owner, writer, 'rejected', list, why, now);
  });
}
