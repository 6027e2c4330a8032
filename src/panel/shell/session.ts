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
import type { Config } from '../../config.ts';
import type { Account } from '../../domain/account.ts';
import type { Environment, Principal } from '../../domain/owner.ts';
import { AppError } from '../../errors.ts';
import type { ServiceContext } from '../../services/context.ts';
import * as accountService from '../../services/account.service.ts';

export const SESSION_COOKIE = 'cw_session';
export const CSRF_COOKIE = 'cw_csrf';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

export interface PanelState {
  account: Account | null;
  sessionToken: string | null;
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
  let account: Account | null = null;
  let sessionToken: string | null = null;
  if (given !== undefined && TOKEN_SHAPE.test(given)) {
    account = (await accountService.sessionAccount(ctx, given)) ?? null;
    if (account !== null) sessionToken = given;
  }
  if (given !== undefined && sessionToken === null) reply.clearCookie(SESSION_COOKIE, { path: '/' });
  request.panel = { account, sessionToken, csrfCookie, csrfToken: csrfTokenFor(ctx.secret, csrfCookie, sessionToken) };
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
  account: Account,
): Promise<void> {
  if (request.panel.sessionToken !== null) await accountService.endSession(ctx, request.panel.sessionToken);
  const token = await accountService.startSession(ctx, account.id);
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(ctx.config, accountService.SESSION_LIFETIME_MS / 1000));
  request.panel = {
    ...request.panel,
    account,
    sessionToken: token,
    csrfToken: csrfTokenFor(ctx.secret, request.panel.csrfCookie, token),
  };
}

export async function signOut(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.panel.sessionToken !== null) await accountService.endSession(ctx, request.panel.sessionToken);
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

/** The signed-in account acting on one environment's data, as the services expect a caller. */
export function principalFor(request: FastifyRequest, env: Environment): Principal {
  const account = accountOf(request);
  return { accountId: account.id, env, keyId: '', timeZone: account.timeZone };
}
