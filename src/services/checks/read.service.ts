// GET /checks/{id}: the check as its read shape shows it — the check and its statements, its
// approval and its mailing — in as few queries as the check needs: one for a check no approval
// policy covers and never queued for mail (the check, its statements and its approval rule come
// in one statement, store/checks/checks.repository.ts findCheckToRead), one more for a held check's
// approvals, one more for a check ever queued for mail.
import { type CheckApproval, NOT_REQUIRED } from '../../domain/approvals/policy.ts';
import type { Check } from '../../domain/check.ts';
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
async function approvalOf(q: Queryable, checkId: string, rule: ReadRule | null): Promise<CheckApproval> {
  if (rule === null) return NOT_REQUIRED;
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
  const approval = await approvalOf(ctx.db, check.id, rule);
  const mailing = (await mailingsOfChecks(ctx, owner, [check])).get(check.id);
  return { check, approval, mailing };
}
