// Sign up, sign in and out, email and phone verification, and password reset. A wrong phone code is
// answered on the home page (home/home.pages.ts), where the code was typed.
import { originOf } from '../../domain/audit.ts';
import { needs } from '../shell/access.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import * as peopleService from '../../services/people/people.service.ts';
import { hasFactor } from '../../services/people/second-factor.service.ts';
import * as accountService from '../../services/account.service.ts';
import { field, queryText } from '../shell/form.ts';
import { html } from '../shell/html.ts';
import { csrfField, page, sendPage } from '../shell/layout.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { homePage } from '../home/home.pages.ts';
import { accountOf, signIn, signOut } from '../shell/session.ts';
import { plainWords } from '../shell/wording.ts';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const PUBLIC = { config: { panelPublic: true } };

/** Only our own panel paths are followed after sign-in (no open redirect). */
function safeNext(next: string): string {
  return /^\/panel(\/|\?|$)/.test(next) && !next.startsWith('//') ? next : '/panel';
}

function retryAfter(ms: number): AppError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AppError('rate_limited', `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
    'retry-after': String(seconds),
  });
}

function signUpForm(request: FastifyRequest, values: Record<string, string>, problem?: string): string {
  return page(
    { title: 'Sign up', request, narrow: true, problem },
    html`<h1>Create your checkwriter account</h1>
<form method="post" action="/panel/sign-up" class="card">${csrfField(request)}
<label for="company">Company name</label><input id="company" name="company" type="text" autocomplete="organization" required maxlength="100" value="${values.company ?? ''}">
<label for="email">Email <span class="hint">— we send a verification link</span></label><input id="email" name="email" type="email" autocomplete="email" required value="${values.email ?? ''}">
<label for="phone">Mobile phone <span class="hint">— we text a six-digit code; include the country code outside the US</span></label><input id="phone" name="phone" type="tel" autocomplete="tel" required value="${values.phone ?? ''}">
<label for="password">Password <span class="hint">— at least ${accountService.MIN_PASSWORD_LENGTH} characters</span></label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="${accountService.MIN_PASSWORD_LENGTH}">
<button type="submit">Create account</button>
</form>
<p>Already have an account? <a href="/panel/sign-in">Sign in</a>.</p>`,
  );
}

function signInForm(request: FastifyRequest, next: string, email: string, problem?: string): string {
  return page(
    { title: 'Sign in', request, narrow: true, problem },
    html`<h1>Sign in to checkwriter</h1>
<form method="post" action="/panel/sign-in" class="card">${csrfField(request)}
<input type="hidden" name="next" value="${next}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<p><a href="/panel/forgot-password">Forgot your password?</a> · New here? <a href="/panel/sign-up">Create an account</a>.</p>`,
  );
}

export async function accountPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;
  // Sign-in limits (docs/security.md, "Abuse limits"). Brute force stays slow, and a stranger
  // cannot lock the owner out: failures count per address+account (5), per address (20), and per
  // account from all addresses (20). Past the per-account limit only addresses that have already
  // failed on this account are refused: a distributed attack gets one guess per fresh address per
  // window, while the owner, from an address that has not failed, still signs in.
  // Counted in the database, so every server sees every attempt (services/shared-limits.service.ts).
  const signInWindows = {
    pair: { limit: 5, ms: FIFTEEN_MINUTES },
    address: { limit: 20, ms: FIFTEEN_MINUTES },
    account: { limit: 20, ms: FIFTEEN_MINUTES },
  };
  const signUps = { limit: 10, ms: HOUR };
  const resets = { limit: 10, ms: HOUR };

  app.get('/sign-up', PUBLIC, async (request, reply) => {
    if (request.panel.account !== null) return reply.redirect('/panel', 303);
    return sendPage(reply, signUpForm(request, {}));
  });

  app.post('/sign-up', PUBLIC, async (request, reply) => {
    const values = {
      company: field(request.body, 'company'),
      email: field(request.body, 'email'),
      phone: field(request.body, 'phone'),
    };
    // Each sign-up texts a phone: a client address gets a few an hour.
    const wait = await deps.limits.take('sign-up', request.ip, signUps);
    if (wait > 0) throw retryAfter(wait);
    try {
      // The same answer whether or not the email already had an account (its owner gets a reset
      // link instead): nobody is signed in here, the new owner signs in next with their password.
      await accountService.signUp(ctx, { ...values, password: field(request.body, 'password') });
      return reply.redirect('/panel/sign-in?notice=signed-up', 303);
    } catch (error) {
      if (error instanceof AppError && error.code === 'validation')
        return sendPage(reply, signUpForm(request, values, plainWords(error.message)), 422);
      throw error;
    }
  });

  app.get('/sign-in', PUBLIC, async (request, reply) => {
    const next = safeNext(queryText(request.query, 'next'));
    if (request.panel.account !== null) return reply.redirect(next, 303);
    return sendPage(reply, signInForm(request, next, ''));
  });

  app.post('/sign-in', PUBLIC, async (request, reply) => {
    const email = field(request.body, 'email').trim().toLowerCase();
    const next = safeNext(field(request.body, 'next'));
    // Counted as a failure before the password is checked, taken back on success: guesses sent at
    // once to several servers cannot overtake the count.
    const { wait, attempt } = await deps.limits.beginSignIn(request.ip, email, signInWindows);
    if (attempt === null) throw retryAfter(wait);
    const signedIn = await peopleService.signInWithPassword(
      ctx,
      email,
      field(request.body, 'password'),
      originOf(request),
    );
    await deps.limits.endSignIn(attempt, signedIn !== null);
    if (signedIn === null)
      return sendPage(reply, signInForm(request, next, email, 'That email and password do not match an account.'), 401);
    // A person with a second factor gets a half-signed session that reaches only the factor page.
    if (await hasFactor(ctx.db, signedIn.person.id)) {
      await signIn(ctx, request, reply, signedIn, true);
      return reply.redirect(`/panel/sign-in/factor?next=${encodeURIComponent(next)}`, 303);
    }
    await signIn(ctx, request, reply, signedIn);
    return reply.redirect(next, 303);
  });

  app.post('/sign-out', PUBLIC, async (request, reply) => {
    await signOut(ctx, request, reply);
    return reply.redirect('/panel/sign-in?notice=signed-out', 303);
  });

  // The emailed link opens a page whose button confirms: mail scanners and link previewers fetch
  // links with GET, and a safe method changes nothing.
  const emailLinkOutcome = (
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: accountService.LinkOutcome,
  ): FastifyReply => {
    if (outcome === 'verified')
      return reply.redirect(
        request.panel.account === null ? '/panel/sign-in?notice=email-verified' : '/panel?notice=email-verified',
        303,
      );
    const text =
      outcome === 'expired'
        ? 'This verification link has expired. Sign in and ask for a new one.'
        : 'This verification link is not valid (it may have been replaced by a newer one). Sign in and ask for a new one.';
    return sendPage(
      reply,
      page(
        { title: 'Link not valid', request, narrow: true },
        html`<h1>Link not valid</h1><p>${text}</p><p><a href="/panel">Go to the panel</a></p>`,
      ),
      410,
    );
  };

  app.get('/verify-email', PUBLIC, async (request, reply) => {
    const token = queryText(request.query, 'token');
    const state = await accountService.emailLinkState(ctx, token);
    if (state !== 'usable') return emailLinkOutcome(request, reply, state);
    return sendPage(
      reply,
      page(
        { title: 'Confirm your email address', request, narrow: true },
        html`<h1>Confirm your email address</h1>
<form method="post" action="/panel/verify-email" class="card">${csrfField(request)}<input type="hidden" name="token" value="${token}">
<p>This confirms that the address belongs to your checkwriter account.</p>
<button type="submit">Confirm my email address</button></form>`,
      ),
    );
  });

  app.post('/verify-email', PUBLIC, async (request, reply) =>
    emailLinkOutcome(request, reply, await accountService.confirmEmail(ctx, field(request.body, 'token'))),
  );

  app.post('/verify-phone', needs('settings.manage'), async (request, reply) => {
    const outcome = await accountService.confirmPhone(ctx, accountOf(request).id, field(request.body, 'code'));
    if (outcome === 'verified') return reply.redirect('/panel?notice=phone-verified', 303);
    const problems: Record<Exclude<typeof outcome, 'verified'>, string> = {
      wrong: 'That code is not right. Check the latest text we sent and try again.',
      expired: 'That code has expired. Ask for a new one.',
      'too-many': 'Too many wrong codes. Ask for a new one.',
      none: 'There is no code waiting. Ask for a new one.',
    };
    return sendPage(reply, await homePage(deps, request, problems[outcome]), 422);
  });

  app.post('/resend', needs('settings.manage'), async (request, reply) => {
    const what = field(request.body, 'what') === 'phone' ? 'phone' : 'email';
    const outcome = await accountService.resendVerification(ctx, accountOf(request), what);
    const notice =
      outcome === 'sent'
        ? what === 'email'
          ? 'email-sent'
          : 'code-sent'
        : outcome === 'too-soon'
          ? 'too-soon'
          : `${what}-verified`;
    return reply.redirect(`/panel?notice=${notice}`, 303);
  });

  const forgotForm = (request: FastifyRequest, sent: boolean): string =>
    page(
      {
        title: 'Reset your password',
        request,
        narrow: true,
        notice: sent
          ? 'If an account uses that email, we sent it a link to choose a new password. It works for one hour.'
          : undefined,
      },
      html`<h1>Reset your password</h1>
<form method="post" action="/panel/forgot-password" class="card">${csrfField(request)}
<label for="email">Email of your account</label><input id="email" name="email" type="email" autocomplete="username" required>
<button type="submit">Email me a reset link</button></form>
<p><a href="/panel/sign-in">Back to sign in</a></p>`,
    );

  app.get('/forgot-password', PUBLIC, async (request, reply) => sendPage(reply, forgotForm(request, false)));

  app.post('/forgot-password', PUBLIC, async (request, reply) => {
    const wait = await deps.limits.take('reset', request.ip, resets);
    if (wait > 0) throw retryAfter(wait);
    await accountService.requestPasswordReset(ctx, field(request.body, 'email'));
    // The same answer whether or not the email has an account.
    return sendPage(reply, forgotForm(request, true));
  });

  const resetForm = (request: FastifyRequest, token: string, problem?: string): string =>
    page(
      { title: 'Choose a new password', request, narrow: true, problem },
      html`<h1>Choose a new password</h1>
<form method="post" action="/panel/reset-password" class="card">${csrfField(request)}<input type="hidden" name="token" value="${token}">
<label for="password">New password <span class="hint">— at least ${accountService.MIN_PASSWORD_LENGTH} characters</span></label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${accountService.MIN_PASSWORD_LENGTH}">
<button type="submit">Set the new password</button></form>`,
    );
  const deadLink = (request: FastifyRequest, reply: FastifyReply, outcome: string): FastifyReply =>
    sendPage(
      reply,
      page(
        { title: 'Link not valid', request, narrow: true },
        html`<h1>Link not valid</h1><p>${outcome === 'expired' ? 'This reset link has expired.' : 'This reset link is not valid or was already used.'} <a href="/panel/forgot-password">Ask for a new one</a>.</p>`,
      ),
      410,
    );

  app.get('/reset-password', PUBLIC, async (request, reply) => {
    const token = queryText(request.query, 'token');
    const state = await accountService.resetLinkState(ctx, token);
    if (state !== 'usable') return deadLink(request, reply, state);
    return sendPage(reply, resetForm(request, token));
  });

  app.post('/reset-password', PUBLIC, async (request, reply) => {
    const token = field(request.body, 'token');
    try {
      const outcome = await accountService.resetPassword(ctx, token, field(request.body, 'password'));
      if (outcome !== 'done') return deadLink(request, reply, outcome);
    } catch (error) {
      if (error instanceof AppError && error.code === 'validation')
        return sendPage(reply, resetForm(request, token, plainWords(error.message)), 422);
      throw error;
    }
    // Every session of the account ended with the reset, this browser's included.
    await signOut(ctx, request, reply);
    return reply.redirect('/panel/sign-in?notice=password-reset', 303);
  });
}
