// Who is at the browser, and whether a form really came from our page.
// - Session: a random id in the `cw_session` cookie (httpOnly, SameSite=Lax, Secure on https);
//   only its hash is stored. A new id is made at every sign-in, never taken from the visitor.
// - CSRF: every form carries a token = HMAC(secret, csrf cookie + session id). The csrf cookie is
//   httpOnly and random, so another site can neither read nor forge the token; binding it to the
//   session id means a token from before sign-in (or another session) is refused. Unsafe methods
//   also need a same-origin Origin header when the browser sends one.
import { randomBytes } from 'node:crypto';
import { derivedToken, sameSecret } from '../../domain/secret-tokens.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { originOf } from '../../domain/audit.ts';
import type { Config } from '../../config.ts';
import type { Account } from '../../domain/account.ts';
import type { Environment, Principal } from '../../domain/owner.ts';
import { AppError } from '../../errors.ts';
import type { ServiceContext } from '../../services/context.ts';
import * as peopleService from '../../services/people/people.service.ts';
import { waitingCount } from '../../services/approvals/approvals.service.ts';
import { may } from '../../domain/people/roles.ts';

export const SESSION_COOKIE = 'cw_session';
export const CSRF_COOKIE = 'cw_csrf';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

export interface PanelState {
  /** The company the signed-in person is working in. */
  account: Account | null;
  /** The person signed in and their membership in `account` (null when signed out). */
  signedIn: peopleService.SignedIn | null;
  sessionToken: string | null;
  /**
   * The person whose password was right but who still owes the second factor (null otherwise):
   * such a session reaches only the factor page (account/factor-proof.pages.ts).
   */
  pendingFactor?: peopleService.SignedIn | null;
  /** The signed-in person's companies, for the header's switcher (empty when signed out). */
  companies?: readonly { accountId: string; company: string }[];
  /**
   * How many checks wait for approval in the environment shown, for the menu's Approvals entry;
   * null when the person may not approve (the entry is not shown).
   */
  approvalsWaiting?: number | null;
  csrfCookie: string;
  csrfToken: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    panel: PanelState;
  }
}

function cookieOptions(config: Config, maxAgeSeconds: number | null): Record<string, unknown> {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicUrl.startsWith('https:'),
    ...(maxAgeSeconds === null ? {} : { maxAge: maxAgeSeconds }),
  };
}

function csrfTokenFor(secret: Buffer, csrfCookie: string, sessionToken: string | null): string {
  return derivedToken(secret, `panel-csrf:${csrfCookie}:${sessionToken ?? ''}`);
}

/** onRequest: reads the cookies, loads the signed-in account, makes sure a CSRF cookie exists. */
export async function loadPanelState(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const cookies = request.cookies;
  let csrfCookie = cookies[CSRF_COOKIE] ?? '';
  if (!TOKEN_SHAPE.test(csrfCookie)) {
    csrfCookie = randomBytes(24).toString('base64url');
    reply.setCookie(CSRF_COOKIE, csrfCookie, cookieOptions(ctx.config, null));
  }
  const given = cookies[SESSION_COOKIE];
  let signedIn: peopleService.SignedIn | null = null;
  let pendingFactor: peopleService.SignedIn | null = null;
  let sessionToken: string | null = null;
  if (given !== undefined && TOKEN_SHAPE.test(given)) {
    const state = await peopleService.openSession(ctx, given);
    if (state?.kind === 'signed-in') signedIn = state.signedIn;
    if (state?.kind === 'factor-pending') pendingFactor = state.signedIn;
    if (state !== undefined) sessionToken = given;
  }
  if (given !== undefined && sessionToken === null) reply.clearCookie(SESSION_COOKIE, { path: '/' });
  // The header's company switcher and waiting-approvals count: two reads only a drawn page needs,
  // not the check form's lookups, which its script sends at every keystroke.
  const drawsPage = request.routeOptions.config.answersJson !== true;
  const companies =
    signedIn === null || !drawsPage ? [] : await peopleService.companiesOfPerson(ctx, signedIn.person.id);
  const approvalsWaiting =
    signedIn !== null && drawsPage && may(signedIn.membership, 'checks.approve')
      ? await waitingCount(ctx.db, { accountId: signedIn.account.id, env: envOf(request) })
      : null;
  request.panel = {
    account: signedIn?.account ?? null,
    signedIn,
    sessionToken,
    pendingFactor,
    companies,
    approvalsWaiting,
    csrfCookie,
    csrfToken: csrfTokenFor(ctx.secret, csrfCookie, sessionToken),
  };
}

function sameOrigin(config: Config, request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  // Browsers send Origin on every cross-site POST; one that sends none is not a cross-site form.
  if (origin === undefined) return true;
  const ours = new Set([new URL(config.publicUrl).origin, `${request.protocol}://${request.host}`]);
  return ours.has(origin);
}

export const FORM_EXPIRED =
  'This form has expired or did not come from this site. Go back, reload the page and try again.';

/** preHandler for POSTs: the form's CSRF token and the Origin header must both be ours. */
export function checkCsrf(ctx: ServiceContext, request: FastifyRequest): void {
  const body = request.body as Record<string, unknown> | undefined;
  const given = typeof body?._csrf === 'string' ? body._csrf : '';
  const ok = sameSecret(request.panel.csrfToken, given) && sameOrigin(ctx.config, request);
  if (!ok) throw new AppError('forbidden', FORM_EXPIRED);
}

/** Signs the browser in with a brand-new session id, ending any session its old cookie named. */
export async function signIn(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  signedIn: peopleService.SignedIn,
  /** A second factor is owed: the new session is half-signed (no sign-in is recorded yet). */
  factorPending = false,
): Promise<void> {
  if (request.panel.sessionToken !== null) await peopleService.endSession(ctx, request.panel.sessionToken);
  const token = await peopleService.startSession(
    ctx,
    { accountId: signedIn.account.id, personId: signedIn.person.id },
    factorPending ? undefined : { actor: peopleService.actorOf(signedIn), origin: originOf(request) },
    factorPending,
  );
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(ctx.config, peopleService.sessionCookieSeconds(ctx)));
  request.panel = {
    ...request.panel,
    account: factorPending ? null : signedIn.account,
    signedIn: factorPending ? null : signedIn,
    pendingFactor: factorPending ? signedIn : null,
    sessionToken: token,
    csrfToken: csrfTokenFor(ctx.secret, request.panel.csrfCookie, token),
  };
}

export async function signOut(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { sessionToken, signedIn } = request.panel;
  if (sessionToken !== null && signedIn !== null)
    await peopleService.signOutSession(ctx, sessionToken, signedIn, originOf(request));
  else if (sessionToken !== null) await peopleService.endSession(ctx, sessionToken);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** The signed-in account; routes run only after `requireSignIn` has let the request through. */
export function accountOf(request: FastifyRequest): Account {
  const account = request.panel.account;
  if (account === null) throw new AppError('unauthenticated', 'Sign in to see this page.');
  return account;
}

/** Which environment's data a work view shows: `?env=live`, else test. */
export function envOf(request: FastifyRequest): Environment {
  const query = request.query as Record<string, unknown> | undefined;
  const body = request.body as Record<string, unknown> | undefined;
  return query?.env === 'live' || body?.env === 'live' ? 'live' : 'test';
}

/** The person signed in and their role in the company; routes run only after sign-in is checked. */
export function signedInOf(request: FastifyRequest): peopleService.SignedIn {
  const signedIn = request.panel.signedIn;
  if (signedIn === null) throw new AppError('unauthenticated', 'Sign in to see this page.');
  return signedIn;
}

/** The signed-in person acting on one environment's data of their company, as the services expect a caller. */
export function principalFor(request: FastifyRequest, env: Environment): Principal {
  const signedIn = signedInOf(request);
  const { account } = signedIn;
  return {
    accountId: account.id,
    env,
    keyId: '',
    timeZone: account.timeZone,
    actor: peopleService.actorOf(signedIn),
    origin: originOf(request),
  };
}
