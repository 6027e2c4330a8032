// GET /checks/{id}: the check as its read shape shows it — the check and its statements, its
// approval and its mailing — in as few queries as the check needs: one for a check no approval
// policy covers and never queued for mail (the check, its statements and its approval rule come
// in one statement, store/checks/checks.repository.ts findCheckToRead), one more for a held check's
// approvals, one more for a check ever queued for mail.
import { type CheckApproval, NOT_REQUIRED } from '../../domain/approvals/policy.ts';
import type { Check } from '../../domain/check.ts';
import { MAILING_QUEUED_STATEMENT } from '../../domain/mailing.ts';
import type { Owner } from '../../domain/owner.ts';
import { notFound } from '../../errors.ts';
import { approvalsOfVersion } from '../../store/approvals/approvals.repository.ts';
import { findCheckToRead, type ReadRule } from '../../store/checks/checks.repository.ts';
import type { Queryable } from '../../store/db.ts';
import type { ServiceContext } from '../context.ts';
import { type CheckMailing, mailingsOfChecks } from '../mailing.service.ts';

export interface CheckRead {
  check: Check;
  approval: CheckApproval;
  mailing: CheckMailing | undefined;
}

/** The approval a rule stands for, with the approvals of its current version. */
async function approvalOf(q: Queryable, checkId: string, rule: ReadRule): Promise<CheckApproval> {
  const approvals = await approvalsOfVersion(q, checkId, rule.version);
  return {
    status: rule.state === 'approved' ? 'approved' : rule.state === 'rejected' ? 'rejected' : 'pending',
    required: rule.required,
    approvals: approvals.map((a) => ({ by: a.label, at: a.at })),
    rejectedBy: rule.rejectedByLabel,
    rejectedAt: rule.rejectedAt,
    reason: rule.reason,
  };
}

export async function readCheck(ctx: ServiceContext, owner: Owner, id: string): Promise<CheckRead> {
  const found = await findCheckToRead(ctx.db, owner, id);
  if (found === undefined) throw notFound('Check');
  const { check, rule } = found;
  // Most checks have neither an approval rule nor a mailing: nothing is called (and no promise
  // made and awaited) for what the check has not got, on the hottest read.
  const approval = rule === null ? NOT_REQUIRED : await approvalOf(ctx.db, check.id, rule);
  const queued = check.statements.some((s) => s.status === MAILING_QUEUED_STATEMENT);
  const mailing = queued ? (await mailingsOfChecks(ctx, owner, [check])).get(check.id) : undefined;
  return { check, approval, mailing };
}
