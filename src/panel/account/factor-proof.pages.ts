// Proving the second factor (docs/team.md, "Second factor"):
// - /panel/sign-in/factor: after the right password, a half-signed session reaches only this page
//   until an app code, a recovery code or a passkey is given;
// - /panel/step-up: the same proof again before the riskiest acts (shell/step-up.ts), then back.
// The person's own factors are managed on /panel/security (security.pages.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { originOf } from '../../domain/audit.ts';
import { AppError } from '../../errors.ts';
import * as peopleService from '../../services/people/people.service.ts';
import * as factorProof from '../../services/people/factor-proof.service.ts';
import * as passkeys from '../../services/people/passkeys.service.ts';
import * as secondFactor from '../../services/people/second-factor.service.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { field, queryText } from '../shell/form.ts';
import { type Html, html } from '../shell/html.ts';
import { csrfField, page, sendPage } from '../shell/layout.ts';
import { signedInOf } from '../shell/session.ts';
import { enrolmentPage, panelPath } from '../shell/step-up.ts';
import { PASSKEY_SCRIPT, WEBAUTHN_SCRIPT } from './factor-assets.ts';

const PUBLIC = { config: { panelPublic: true } };

function retryAfter(ms: number): AppError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AppError(
    'rate_limited',
    `Too many wrong codes. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { 'retry-after': String(seconds) },
  );
}

export function whoOf(request: FastifyRequest, signedIn: peopleService.SignedIn): secondFactor.FactorActor {
  return { accountId: signedIn.account.id, actor: peopleService.actorOf(signedIn), origin: originOf(request) };
}

const PROBLEMS = {
  wrong: 'That code is not right. Enter the six digits your app shows now, or one of your recovery codes.',
  reused: 'That code was already used. Wait for your app to show the next one.',
  passkey: 'The passkey was not accepted. Try again, or enter a code.',
} as const;

/** The forms that prove the factor: a code (app or recovery), and a passkey when the person has one. */
function proveForms(request: FastifyRequest, action: string, next: string, hasPasskey: boolean): Html {
  const passkey = hasPasskey
    ? html`<form method="post" action="${action}/passkey" class="card" data-passkey="prove" data-options="${action}/passkey-options" data-problem="passkey-problem">${csrfField(request)}
<input type="hidden" name="next" value="${next}"><input type="hidden" name="response" value="">
<h2>Use a passkey</h2><p class="hint">Your browser asks your device or security key.</p>
<p id="passkey-problem" class="field-error" role="status"></p>
<button type="submit">Use a passkey</button></form>`
    : '';
  return html`<form method="post" action="${action}" class="card">${csrfField(request)}
<input type="hidden" name="next" value="${next}">
<label for="code">Code <span class="hint">— six digits from your authenticator app, or a recovery code</span></label>
<input id="code" name="code" type="text" inputmode="text" autocomplete="one-time-code" required maxlength="20" autofocus>
<button type="submit">Continue</button></form>${passkey}`;
}

/** The session's own token, which the factor's proofs are bound to. */
export function tokenOf(request: FastifyRequest): string {
  const token = request.panel.sessionToken;
  if (token === null) throw new AppError('unauthenticated', 'Your session has ended. Sign in and try again.');
  return token;
}

export async function factorProofPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx, limits } = deps;

  // ---- sign-in: the factor after the password ----

  const pendingOf = (request: FastifyRequest): peopleService.SignedIn | null => request.panel.pendingFactor ?? null;
  /** The half-signed session a factor form answers for; past its ten minutes, sign in again. */
  const pendingOrExpired = (request: FastifyRequest): peopleService.SignedIn => {
    const who = pendingOf(request);
    if (who === null) throw new AppError('unauthenticated', 'Your sign-in has expired. Sign in again.');
    return who;
  };

  const factorPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    who: peopleService.SignedIn,
    options: { step: 'sign-in' | 'step-up'; next: string; problem?: string; status?: number },
  ): Promise<FastifyReply> => {
    const summary = await secondFactor.factorsOf(ctx, who.person.id);
    const action = options.step === 'sign-in' ? '/panel/sign-in/factor' : '/panel/step-up';
    const intro =
      options.step === 'sign-in'
        ? html`<h1>Second factor</h1><p>Your password was right. Now prove it is you with your second factor.</p>`
        : html`<h1>Confirm it is you</h1><p>This is one of the acts that ask for your second factor again when the last time was more than ten minutes ago. You go back to the page you were on afterwards.</p>`;
    const signOut =
      options.step === 'sign-in'
        ? html`<form method="post" action="/panel/sign-out">${csrfField(request)}<button class="secondary" type="submit">Cancel and sign out</button></form>`
        : html`<p><a href="/panel">Back to the panel</a></p>`;
    return sendPage(
      reply,
      page(
        {
          title: options.step === 'sign-in' ? 'Second factor' : 'Confirm it is you',
          request,
          narrow: true,
          problem: options.problem,
          scripts: summary.passkeys.length > 0 ? [WEBAUTHN_SCRIPT.path, PASSKEY_SCRIPT.path] : [],
        },
        html`${intro}${proveForms(request, action, options.next, summary.passkeys.length > 0)}${signOut}`,
      ),
      options.status ?? 200,
    );
  };

  /** What a proof's outcome answers: on to `next`, or the page again with the problem. */
  const afterProof = async (
    request: FastifyRequest,
    reply: FastifyReply,
    who: peopleService.SignedIn,
    step: 'sign-in' | 'step-up',
    next: string,
    outcome: factorProof.ProveOutcome,
    problem: string,
  ): Promise<FastifyReply> => {
    if (typeof outcome === 'object') throw retryAfter(outcome.wait);
    if (outcome === 'passed') return reply.redirect(next, 303);
    return factorPage(request, reply, who, {
      step,
      next,
      problem: outcome === 'reused' ? PROBLEMS.reused : problem,
      status: 401,
    });
  };

  app.get('/sign-in/factor', PUBLIC, async (request, reply) => {
    const next = panelPath(queryText(request.query, 'next')) ?? '/panel';
    const who = pendingOf(request);
    if (who === null) return reply.redirect(request.panel.signedIn === null ? '/panel/sign-in' : next, 303);
    return factorPage(request, reply, who, { step: 'sign-in', next });
  });

  /**
   * The three answers of a factor form at `path`: a code, a passkey's options, a passkey. Sign-in
   * answers for the half-signed session, step-up for the signed-in one; the same proofs either way.
   */
  const proofRoutes = (
    path: string,
    options: RouteShorthandOptions,
    step: 'sign-in' | 'step-up',
    whoFor: (request: FastifyRequest) => peopleService.SignedIn,
  ): void => {
    const actorOf = (request: FastifyRequest, who: peopleService.SignedIn): secondFactor.FactorActor => ({
      ...whoOf(request, who),
      ...(step === 'sign-in' ? { signingIn: true } : {}),
    });
    app.post(path, options, async (request, reply) => {
      const next = panelPath(field(request.body, 'next')) ?? '/panel';
      const who = whoFor(request);
      const outcome = await factorProof.proveWithCode(
        ctx,
        limits,
        actorOf(request, who),
        who.person,
        tokenOf(request),
        field(request.body, 'code'),
      );
      return afterProof(request, reply, who, step, next, outcome, PROBLEMS.wrong);
    });
    app.post(`${path}/passkey-options`, options, async (request, reply) =>
      reply.send(await passkeys.passkeyAuthenticationOptions(ctx, whoFor(request).person.id, tokenOf(request))),
    );
    app.post(`${path}/passkey`, options, async (request, reply) => {
      const next = panelPath(field(request.body, 'next')) ?? '/panel';
      const who = whoFor(request);
      const outcome = await passkeys.proveWithPasskey(
        ctx,
        limits,
        actorOf(request, who),
        who.person.id,
        tokenOf(request),
        parseJson(field(request.body, 'response')),
      );
      return afterProof(request, reply, who, step, next, outcome, PROBLEMS.passkey);
    });
  };

  proofRoutes('/sign-in/factor', PUBLIC, 'sign-in', pendingOrExpired);

  // ---- step-up: the factor again, then back ----

  const STEP_UP = enrolmentPage('read');

  app.get('/step-up', STEP_UP, async (request, reply) => {
    const next = panelPath(queryText(request.query, 'next')) ?? '/panel';
    return factorPage(request, reply, signedInOf(request), { step: 'step-up', next });
  });

  proofRoutes('/step-up', STEP_UP, 'step-up', signedInOf);
}

/** The browser's WebAuthn answer, or null when it is not JSON (the service then refuses it). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
