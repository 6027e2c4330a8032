// Passkeys (WebAuthn, docs/team.md "Second factor"): enrolling one, and proving the factor with it.
// Checked by @simplewebauthn/server; only the passkey's public key and counter are kept.
import type { verifyRegistrationResponse } from '@simplewebauthn/server';
import { tokenHash } from '../../domain/secret-tokens.ts';
import * as factors from '../../store/second-factors.repository.ts';
import type { ServiceContext } from '../context.ts';
import type { FactorLimits, ProveOutcome } from './factor-proof.service.ts';
import {
  audit,
  FACTOR_FAILURES,
  type FactorActor,
  ISSUER,
  newRecoveryCodes,
  recordSignIn,
} from './second-factor.service.ts';

// The passkey library (with its X.509 and CBOR parsers) and the QR code writer are loaded by the
// first enrolment or passkey sign-in, not at start-up: together they were a fifth of a second of
// every start, and most people never enrol a passkey.
const webauthn = (): Promise<typeof import('@simplewebauthn/server')> => import('@simplewebauthn/server');

/** The relying party: this server's public address names it (PUBLIC_URL). */
function relyingParty(ctx: ServiceContext): { rpID: string; origin: string } {
  const url = new URL(ctx.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/** Options for enrolling a passkey; the challenge is kept on the session until it is answered. */
export async function passkeyRegistrationOptions(
  ctx: ServiceContext,
  person: { id: string; email: string; name: string },
  sessionToken: string,
): Promise<unknown> {
  const existing = await factors.passkeysOf(ctx.db, person.id);
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: ISSUER,
    rpID: relyingParty(ctx).rpID,
    userName: person.email,
    userDisplayName: person.name.trim() === '' ? person.email : person.name,
    userID: new TextEncoder().encode(person.id),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await factors.setSessionChallenge(ctx.db, tokenHash(sessionToken), options.challenge);
  return options;
}

export async function registerPasskey(
  ctx: ServiceContext,
  who: FactorActor,
  personId: string,
  sessionToken: string,
  response: unknown,
  name: string,
): Promise<{ ok: true; recoveryCodes: string[] | null } | { ok: false }> {
  const challenge = await factors.takeSessionChallenge(ctx.db, tokenHash(sessionToken));
  if (challenge === null) return { ok: false };
  const { rpID, origin } = relyingParty(ctx);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  // Loaded outside the try: a library that cannot load is a server fault, not a refused passkey.
  const { verifyRegistrationResponse } = await webauthn();
  try {
    verified = await verifyRegistrationResponse({
      // biome-ignore lint/suspicious/noExplicitAny: the browser's JSON, checked field by field by the library
      response: response as any,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch {
    return { ok: false };
  }
  if (!verified.verified || verified.registrationInfo === undefined) return { ok: false };
  const { credential } = verified.registrationInfo;
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    await factors.insertPasskey(tx, {
      id: credential.id,
      personId,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (credential.transports ?? []).map(String),
      name: name.trim().slice(0, 60) || 'Passkey',
      createdAt: now,
      lastUsedAt: null,
    });
    const codes =
      (await factors.unusedRecoveryCodes(tx, personId)) === 0 ? await newRecoveryCodes(ctx, tx, personId, now) : null;
    await factors.markSessionFactor(tx, tokenHash(sessionToken), now);
    await audit(tx, who, personId, 'second-factor.enrolled', now, { field: 'factor', value: 'passkey' });
    return { ok: true, recoveryCodes: codes } as const;
  });
}

/** Options for proving the factor with one of the person's passkeys. */
export async function passkeyAuthenticationOptions(
  ctx: ServiceContext,
  personId: string,
  sessionToken: string,
): Promise<unknown> {
  const passkeys = await factors.passkeysOf(ctx.db, personId);
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).rpID,
    allowCredentials: passkeys.map((p) => ({ id: p.id, transports: p.transports as never })),
    userVerification: 'preferred',
  });
  await factors.setSessionChallenge(ctx.db, tokenHash(sessionToken), options.challenge);
  return options;
}

export async function proveWithPasskey(
  ctx: ServiceContext,
  limits: FactorLimits,
  who: FactorActor,
  personId: string,
  sessionToken: string,
  response: unknown,
): Promise<ProveOutcome> {
  const { wait, at } = await limits.attempt('second-factor', personId, FACTOR_FAILURES);
  if (wait > 0) return { wait };
  const now = ctx.now();
  const challenge = await factors.takeSessionChallenge(ctx.db, tokenHash(sessionToken));
  const credentialId =
    typeof response === 'object' && response !== null && typeof (response as { id?: unknown }).id === 'string'
      ? (response as { id: string }).id
      : '';
  const passkey = (await factors.passkeysOf(ctx.db, personId)).find((p) => p.id === credentialId);
  let passed = false;
  if (challenge !== null && passkey !== undefined) {
    const { rpID, origin } = relyingParty(ctx);
    const { verifyAuthenticationResponse } = await webauthn();
    try {
      const verified = await verifyAuthenticationResponse({
        // biome-ignore lint/suspicious/noExplicitAny: the browser's JSON, checked field by field by the library
        response: response as any,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: false,
        credential: {
          id: passkey.id,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
      });
      if (verified.verified) {
        passed = await ctx.db.transaction(async (tx) => {
          const moved = await factors.usePasskey(
            tx,
            passkey.id,
            passkey.counter,
            verified.authenticationInfo.newCounter,
            now,
          );
          if (moved !== 1) return false;
          await factors.markSessionFactor(tx, tokenHash(sessionToken), now);
          await audit(tx, who, personId, 'second-factor.passed', now, { field: 'factor', value: 'passkey' });
          await recordSignIn(tx, who, now);
          return true;
        });
      }
    } catch {
      passed = false;
    }
  }
  if (!passed) {
    await ctx.db.transaction((tx) =>
      audit(tx, who, personId, 'second-factor.failed', now, { field: 'factor', value: 'passkey' }),
    );
    return 'wrong';
  }
  await limits.giveBack('second-factor', personId, at);
  return 'passed';
}
