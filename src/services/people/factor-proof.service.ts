// Proving the second factor, at sign-in and at step-up: a six-digit app code or a recovery code
// (docs/team.md, "Second factor"). Every attempt counts against the person's limit before it is
// checked; a pass marks the session, a recovery code used is emailed to the person.
import { queuedMessage } from '../../domain/delivery.ts';
import { newId } from '../../domain/ids.ts';
import { totpSecretContext } from '../../domain/sealed.ts';
import { tokenHash } from '../../domain/secret-tokens.ts';
import * as deliveries from '../../store/deliveries.repository.ts';
import * as factors from '../../store/second-factors.repository.ts';
import type { Queryable } from '../../store/db.ts';
import type { ServiceContext } from '../context.ts';
import {
  audit,
  FACTOR_FAILURES,
  type FactorActor,
  matchingStep,
  normalRecoveryCode,
  recordSignIn,
  recoveryHash,
} from './second-factor.service.ts';

export type ProveOutcome = 'passed' | 'wrong' | 'reused' | { wait: number };

/** What proving needs: the limits shared by the servers (services/shared-limits.service.ts). */
export interface FactorLimits {
  attempt(kind: string, subject: string, window: { limit: number; ms: number }): Promise<{ wait: number; at: number }>;
  giveBack(kind: string, subject: string, at: number): Promise<void>;
}

/**
 * Proves the factor with a six-digit app code or a recovery code, for the session `sessionToken`.
 * Each attempt counts as a failure before it is checked (so guesses sent at once to several
 * servers cannot overtake the count) and is taken back when it passes. A recovery code used is
 * recorded and emailed to the person.
 */
export async function proveWithCode(
  ctx: ServiceContext,
  limits: FactorLimits,
  who: FactorActor,
  person: { id: string; email: string },
  sessionToken: string,
  given: string,
): Promise<ProveOutcome> {
  const { wait, at } = await limits.attempt('second-factor', person.id, FACTOR_FAILURES);
  if (wait > 0) return { wait };
  const now = ctx.now();
  const code = given.trim().replace(/\s/g, '');
  const outcome = await ctx.db.transaction(async (tx): Promise<'passed' | 'wrong' | 'reused' | 'recovery'> => {
    if (/^\d{6}$/.test(code)) {
      const totp = await factors.findTotp(tx, person.id);
      if (totp === undefined || totp.confirmedAt === null) return 'wrong';
      const step = matchingStep(ctx.vault.open(totp.sealedSecret, totpSecretContext(person.id)), code, now);
      if (step === null) return 'wrong';
      if ((await factors.acceptTotpStep(tx, person.id, step, now, false)) !== 1) return 'reused';
      await factors.markSessionFactor(tx, tokenHash(sessionToken), now);
      await audit(tx, who, person.id, 'second-factor.passed', now, { field: 'factor', value: 'authenticator app' });
      await recordSignIn(tx, who, now);
      return 'passed';
    }
    if (normalRecoveryCode(code).length !== 10) return 'wrong';
    if ((await factors.useRecoveryCode(tx, person.id, recoveryHash(ctx.secret, person.id, code), now)) !== 1)
      return 'wrong';
    await factors.markSessionFactor(tx, tokenHash(sessionToken), now);
    await audit(tx, who, person.id, 'second-factor.recovery-code-used', now, {
      field: 'recoveryCodesLeft',
      value: String(await factors.unusedRecoveryCodes(tx, person.id)),
    });
    await queueRecoveryNotice(tx, who.accountId, person.email, now);
    await recordSignIn(tx, who, now);
    return 'recovery';
  });
  if (outcome === 'wrong' || outcome === 'reused') {
    await ctx.db.transaction((tx) =>
      audit(tx, who, person.id, 'second-factor.failed', now, {
        field: 'factor',
        value: outcome === 'reused' ? 'authenticator app code used before' : 'code',
      }),
    );
    return outcome;
  }
  await limits.giveBack('second-factor', person.id, at);
  return 'passed';
}

/** The email telling a person one of their recovery codes was used (no code in it). */
async function queueRecoveryNotice(tx: Queryable, accountId: string, email: string, now: number): Promise<void> {
  const delivery = queuedMessage(
    newId('dlv', now),
    'email',
    email,
    { account: 'recovery-code-used', usedAt: now },
    null,
    now,
  );
  // Like reset links, messages to the company's own people are real whatever the environment.
  await deliveries.insertDeliveries(tx, { accountId, env: 'live' }, [delivery]);
}
