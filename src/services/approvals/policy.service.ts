// A company's approval policy (docs/approvals.md): set by owners and admins in the panel and by
// `checkwriter approvals set`. A change applies to checks written after it; checks already
// waiting keep the rule they were written under (their rule is stored with them).
import { isApproverCount } from '../../domain/approvals/policy.ts';
import type { Principal } from '../../domain/owner.ts';
import { validationError } from '../../errors.ts';
import * as store from '../../store/approvals/approvals.repository.ts';
import { type AuditSource, record } from '../audit.service.ts';
import type { ServiceContext } from '../context.ts';
import { actorColumns } from '../../domain/audit.ts';
import type { Actor } from '../../domain/actor.ts';
import { isRole, may } from '../../domain/people/roles.ts';

export type { StoredPolicy } from '../../store/approvals/approvals.repository.ts';

export interface PolicyInput {
  readonly thresholdCents: number;
  /** 1 or 2; 0 removes the rule. */
  readonly approvers: number;
  /** '' (or absent) for the company's rule. */
  readonly bankAccountId?: string;
}

export async function listPolicies(ctx: ServiceContext, accountId: string): Promise<store.StoredPolicy[]> {
  return store.policies(ctx.db, accountId);
}

/** Sets (or, with 0 approvers, removes) one rule; the change is in the audit trail. */
export async function setPolicy(ctx: ServiceContext, who: Principal | AuditSource, input: PolicyInput): Promise<void> {
  const bankAccountId = input.bankAccountId ?? '';
  if (!Number.isSafeInteger(input.thresholdCents) || input.thresholdCents < 0)
    throw validationError('The threshold field must be an amount of 0 or more.');
  if (input.approvers !== 0 && !isApproverCount(input.approvers))
    throw validationError('The approvers field must be 1 or 2 (0 removes the rule).');
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    if (bankAccountId !== '' && !(await store.companyHasBankAccount(tx, who.accountId, bankAccountId)))
      throw validationError('The selected bankAccountId is invalid.');
    const before = (await store.policies(tx, who.accountId)).find((p) => p.bankAccountId === bankAccountId);
    const show = (p: { thresholdCents: number; approvers: number } | undefined): string | null =>
      p === undefined ? null : `${p.approvers} approval(s) at or above ${p.thresholdCents} cents`;
    if (input.approvers === 0) {
      if ((await store.removePolicy(tx, who.accountId, bankAccountId)) === 0) return;
    } else if (isApproverCount(input.approvers)) {
      await store.savePolicy(
        tx,
        who.accountId,
        { bankAccountId, thresholdCents: input.thresholdCents, approvers: input.approvers },
        actorColumns(who.actor).label,
        now,
      );
    }
    await record(
      tx,
      {
        accountId: who.accountId,
        env: '',
        actor: who.actor,
        ...(who.origin === undefined ? {} : { origin: who.origin }),
      },
      [
        {
          action: 'approvals.policy',
          objectType: 'approval_policy',
          objectId: bankAccountId === '' ? 'company' : bankAccountId,
          changes: [{ field: 'rule', old: show(before), new: input.approvers === 0 ? null : show(input) }],
        },
      ],
      now,
    );
  });
}

export async function bankAccountChoices(
  ctx: ServiceContext,
  accountId: string,
): Promise<{ id: string; name: string; env: string }[]> {
  return store.companyBankAccounts(ctx.db, accountId);
}

/** The person `email` names in the company as an actor, when their role may set the policy. */
export async function policySetter(ctx: ServiceContext, accountId: string, email: string): Promise<Actor | undefined> {
  const member = await store.memberByEmail(ctx.db, accountId, email);
  if (member === undefined || !isRole(member.role)) return undefined;
  if (!may({ role: member.role, approves: member.approves === 1 }, 'approvals.policy')) return undefined;
  return {
    kind: 'person',
    personId: member.id,
    name: member.name,
    email: member.email,
    role: member.role,
    approves: member.approves === 1,
  };
}
