// /panel/security (docs/team.md, "Second factor"): the person's own factors — an authenticator
// app by QR code (the secret also as text), recovery codes shown once, passkeys — and, for an
// owner, requiring a factor of everyone. Proving a factor is factor-proof.pages.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import * as passkeys from '../../services/people/passkeys.service.ts';
import * as secondFactor from '../../services/people/second-factor.service.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { field, queryText, sentField } from '../shell/form.ts';
import { html } from '../shell/html.ts';
import { csrfField, page, sendPage, when } from '../shell/layout.ts';
import { signedInOf } from '../shell/session.ts';
import { enrolmentPage } from '../shell/step-up.ts';
import { PASSKEY_SCRIPT, WEBAUTHN_SCRIPT } from './factor-assets.ts';
import { parseJson, tokenOf, whoOf } from './factor-proof.pages.ts';

const REQUIRE_PROBLEM = 'Use the button on the security page to require a second factor of everyone, or to stop.';

/** Removing a factor or replacing the recovery codes asks for a recent factor too. */
const ENROLMENT_STEP_UP = { config: { action: 'read' as const, factorEnrolment: true, stepUp: true } };

export async function securityPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  const securityPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    options: { problem?: string; notice?: string; recoveryCodes?: readonly string[]; status?: number } = {},
  ): Promise<FastifyReply> => {
    const who = signedInOf(request);
    const summary = await secondFactor.factorsOf(ctx, who.person.id);
    const required = await secondFactor.factorRequired(ctx, who.account.id, who.membership);
    const everyone = await secondFactor.isFactorRequiredOfEveryone(ctx, who.account.id);
    const pending =
      summary.totp === 'pending' ? await secondFactor.pendingTotp(ctx, who.person.id, who.person.email) : null;
    const noticeKey = queryText(request.query, 'notice');
    const notice =
      options.notice ??
      (noticeKey === 'factor-required'
        ? `Your role in ${who.account.company.trim() === '' ? 'this company' : who.account.company} requires a second factor. Set one up to go on.`
        : undefined);

    const codes =
      options.recoveryCodes === undefined
        ? ''
        : html`<section class="card" aria-labelledby="codes-heading"><h2 id="codes-heading">Your recovery codes</h2>
<p><strong>Save these now: they are shown only once.</strong> Each works one time, in place of a code from your app, if you lose it.</p>
<ul class="plain" id="recovery-codes">${options.recoveryCodes.map((c) => html`<li><code>${c}</code></li>`)}</ul></section>`;

    const app =
      summary.totp === 'confirmed'
        ? html`<p>An authenticator app is set up.</p>
<form method="post" action="/panel/security/totp/remove">${csrfField(request)}<button class="danger" type="submit">Remove the authenticator app</button></form>`
        : pending !== null
          ? html`<ol><li>Scan this QR code with your authenticator app, or type the secret into it.</li><li>Enter the six digits it shows.</li></ol>
<p><img src="data:image/svg+xml;base64,${Buffer.from(pending.qrSvg).toString('base64')}" width="200" height="200" alt="QR code of the authenticator app's secret (the same secret is written below)"></p>
<p>Secret: <code class="secret" id="totp-secret">${pending.secret}</code></p>
<form method="post" action="/panel/security/totp/confirm">${csrfField(request)}
<label for="totp-code">Code from your app</label><input id="totp-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="6" pattern="[0-9]{6}">
<button type="submit">Confirm the app</button></form>`
          : html`<p>Use an app such as 1Password, Google Authenticator or Authy that shows a new six-digit code every 30 seconds.</p>
<form method="post" action="/panel/security/totp/start">${csrfField(request)}<button type="submit">Set up an authenticator app</button></form>`;

    // Adding a passkey changes how this person signs in: with their factor proven long ago, they
    // prove it first (the ceremony's options would be refused).
    const stale =
      (summary.totp === 'confirmed' || summary.passkeys.length > 0) &&
      (await secondFactor.stepUpDue(ctx, who.person.id, who.factorAt ?? null));
    const addPasskey = stale
      ? html`<p><a href="/panel/step-up?next=%2Fpanel%2Fsecurity">Confirm it is you</a> to add a passkey.</p>`
      : html`<form method="post" action="/panel/security/passkeys" data-passkey="register" data-options="/panel/security/passkeys/options" data-problem="passkey-problem">${csrfField(request)}
<input type="hidden" name="response" value="">
<label for="passkey-name">Name of the new passkey <span class="hint">— to tell your devices apart</span></label><input id="passkey-name" name="name" type="text" maxlength="60" value="Passkey">
<p id="passkey-problem" class="field-error" role="status"></p>
<button type="submit">Add a passkey</button></form>`;
    const passkeys = html`${
      summary.passkeys.length === 0
        ? html`<p>No passkeys yet.</p>`
        : html`<ul class="plain">${summary.passkeys.map(
            (p) =>
              html`<li>${p.name} <span class="hint">— added ${when(p.createdAt, who.account.timeZone)}</span>
<form method="post" action="/panel/security/passkeys/remove" class="inline">${csrfField(request)}<input type="hidden" name="id" value="${p.id}"><button class="small secondary" type="submit">Remove ${p.name}</button></form></li>`,
          )}</ul>`
    }
${addPasskey}`;

    const hasAny = summary.totp === 'confirmed' || summary.passkeys.length > 0;
    const recovery = hasAny
      ? html`<p>${summary.recoveryCodesLeft} of ${secondFactor.RECOVERY_CODE_COUNT} recovery codes unused.</p>
<form method="post" action="/panel/security/recovery-codes">${csrfField(request)}<button class="secondary" type="submit">Make new recovery codes</button></form>
<p class="hint">New codes replace the old ones: the old ones stop working.</p>`
      : html`<p>You get ten recovery codes when you set up your first factor.</p>`;

    const policy =
      who.membership.role === 'owner'
        ? html`<section class="card" aria-labelledby="policy-heading"><h2 id="policy-heading">Everyone in ${who.account.company.trim() === '' ? 'this company' : who.account.company}</h2>
<p>Owners, admins and approvers always need a second factor.</p>
<form method="post" action="/panel/security/require">${csrfField(request)}
<input type="hidden" name="required" value="${everyone ? 'no' : 'yes'}">
<p>${everyone ? 'Everyone in the company must have a second factor.' : 'Other roles may sign in with a password alone.'}</p>
<button type="submit" class="secondary">${everyone ? 'Stop requiring it of everyone' : 'Require a second factor of everyone'}</button></form></section>`
        : '';

    return sendPage(
      reply,
      page(
        {
          title: 'Security',
          request,
          problem: options.problem,
          notice,
          scripts: [WEBAUTHN_SCRIPT.path, PASSKEY_SCRIPT.path],
        },
        html`<h1>Security</h1>
<p>${required ? 'Your role requires a second factor: after your password, sign-in asks for a code from your app or a passkey.' : 'A second factor keeps your account safe when your password is not: after it, sign-in asks for a code from your app or a passkey.'}</p>
${codes}
<section class="card" aria-labelledby="app-heading"><h2 id="app-heading">Authenticator app</h2>${app}</section>
<section class="card" aria-labelledby="passkeys-heading"><h2 id="passkeys-heading">Passkeys</h2>${passkeys}</section>
<section class="card" aria-labelledby="recovery-heading"><h2 id="recovery-heading">Recovery codes</h2>${recovery}</section>
${policy}`,
      ),
      options.status ?? 200,
    );
  };

  const OWN = enrolmentPage('read');

  app.get('/security', OWN, async (request, reply) => securityPage(request, reply));

  app.post('/security/totp/start', OWN, async (request, reply) => {
    const who = signedInOf(request);
    const summary = await secondFactor.factorsOf(ctx, who.person.id);
    if (summary.totp !== 'confirmed') await secondFactor.startTotp(ctx, who.person.id);
    return reply.redirect('/panel/security', 303);
  });

  app.post('/security/totp/confirm', OWN, async (request, reply) => {
    const who = signedInOf(request);
    const outcome = await secondFactor.confirmTotp(
      ctx,
      whoOf(request, who),
      who.person.id,
      tokenOf(request),
      field(request.body, 'code'),
    );
    if (!outcome.ok)
      return securityPage(request, reply, {
        problem: 'That code is not right. Enter the six digits your app shows now.',
        status: 422,
      });
    // Shown in this answer only: no page shows them again.
    return securityPage(request, reply, {
      notice: 'The authenticator app is set up.',
      ...(outcome.recoveryCodes === null ? {} : { recoveryCodes: outcome.recoveryCodes }),
    });
  });

  const removal = async (
    request: FastifyRequest,
    reply: FastifyReply,
    which: { kind: 'totp' } | { kind: 'passkey'; id: string },
  ): Promise<FastifyReply> => {
    const who = signedInOf(request);
    const required = await secondFactor.factorRequired(ctx, who.account.id, who.membership);
    const outcome = await secondFactor.removeFactor(ctx, whoOf(request, who), who.person.id, which, required);
    if (outcome === 'not-found') throw new AppError('not_found', 'Not found.');
    if (outcome === 'required')
      return securityPage(request, reply, {
        problem: 'This is your last second factor and your role requires one. Add another before removing it.',
        status: 409,
      });
    return securityPage(request, reply, { notice: 'The factor is removed.' });
  };

  app.post('/security/totp/remove', ENROLMENT_STEP_UP, async (request, reply) =>
    removal(request, reply, { kind: 'totp' }),
  );

  app.post('/security/passkeys/remove', ENROLMENT_STEP_UP, async (request, reply) =>
    removal(request, reply, { kind: 'passkey', id: field(request.body, 'id') }),
  );

  app.post('/security/recovery-codes', ENROLMENT_STEP_UP, async (request, reply) => {
    const who = signedInOf(request);
    if (!(await secondFactor.hasFactor(ctx.db, who.person.id)))
      return securityPage(request, reply, { problem: 'Set up a second factor first.', status: 409 });
    const codes = await secondFactor.regenerateRecoveryCodes(ctx, whoOf(request, who), who.person.id);
    return securityPage(request, reply, {
      notice: 'New recovery codes are made: the old ones no longer work.',
      recoveryCodes: codes,
    });
  });

  app.post('/security/passkeys/options', OWN, async (request, reply) => {
    const who = signedInOf(request);
    // A second passkey is a change to how this person signs in: it needs a recent factor too.
    if (
      (await secondFactor.hasFactor(ctx.db, who.person.id)) &&
      (await secondFactor.stepUpDue(ctx, who.person.id, who.factorAt ?? null))
    )
      throw new AppError('forbidden', 'Confirm it is you first: reload the page.');
    return reply.send(await passkeys.passkeyRegistrationOptions(ctx, who.person, tokenOf(request)));
  });

  app.post('/security/passkeys', OWN, async (request, reply) => {
    const who = signedInOf(request);
    const outcome = await passkeys.registerPasskey(
      ctx,
      whoOf(request, who),
      who.person.id,
      tokenOf(request),
      parseJson(field(request.body, 'response')),
      field(request.body, 'name'),
    );
    if (!outcome.ok)
      return securityPage(request, reply, { problem: 'The passkey was not added. Try again.', status: 422 });
    return securityPage(request, reply, {
      notice: 'The passkey is added.',
      ...(outcome.recoveryCodes === null ? {} : { recoveryCodes: outcome.recoveryCodes }),
    });
  });

  app.post(
    '/security/require',
    { config: { action: 'security.policy', factorEnrolment: true, stepUp: true } },
    async (request, reply) => {
      const who = signedInOf(request);
      // The form's hidden field says "yes" or "no"; a body without it is refused, not read as "no"
      // (which would stop requiring a second factor of everyone).
      const required = sentField(request.body, 'required', REQUIRE_PROBLEM);
      if (required !== 'yes' && required !== 'no') throw new AppError('validation', REQUIRE_PROBLEM);
      await secondFactor.setFactorRequiredOfEveryone(ctx, whoOf(request, who), required === 'yes');
      return reply.redirect('/panel/security', 303);
    },
  );
}
