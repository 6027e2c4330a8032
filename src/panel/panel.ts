// The panel (/panel): server-rendered pages for the office — home, checks, payees, the check
// register, imports, positive pay, bank accounts, settings — and for the developer — API keys,
// webhooks, the sandbox inbox — beside sign-up, sign-in and verification. Pages call the same
// services as the API; the session decides the account, and the `env` query decides test or live
// data, so another account's ids are simply not found.
//
// One folder per menu entry, each one plugin registered here under the URL its menu links to, so a
// page is found from its address (/panel/checks/* in checks/); shell/ holds what every page uses.
import cookie from '@fastify/cookie';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Action, forbiddenWords, isAction, may } from '../domain/people/roles.ts';
import { AppError, logUnavailable } from '../errors.ts';
import { FAVICON, SCRIPT, STYLESHEET } from './shell/assets.ts';
import { parseForm } from './shell/form.ts';
import { html } from './shell/html.ts';
import { page, sendPage } from './shell/layout.ts';
import { checkCsrf, loadPanelState } from './shell/session.ts';
import { requireEnrolledFactor, requireRecentFactor } from './shell/step-up.ts';
import { FACTOR_SCRIPTS } from './account/factor-assets.ts';
import { factorProofPages } from './account/factor-proof.pages.ts';
import { securityPages } from './account/security.pages.ts';
import { accountPages } from './account/account.pages.ts';
import { bankAccountsPlugin } from './bank-accounts/index.ts';
import { checksPlugin } from './checks/index.ts';
import { checkLookupPages } from './checks/write/lookup.pages.ts';
import { developerPlugin } from './developer/index.ts';
import { homePages } from './home/home.pages.ts';
import { importsPages } from './imports/imports.pages.ts';
import { positivePayPages } from './positive-pay/positive-pay.pages.ts';
import { positivePayLayoutPages } from './positive-pay/layouts.pages.ts';
import { recordsPlugin } from './records/index.ts';
import { checkRegisterListPages } from './check-register/check-register.pages.ts';
import { settingsPages } from './settings/settings.pages.ts';
import { auditPages } from './audit/audit.pages.ts';
import { peoplePlugin } from './people/index.ts';
import { approvalsPages } from './approvals/approvals.pages.ts';
import { policyPages } from './approvals/policy.pages.ts';
import { type PanelDeps, under } from './shell/deps.ts';
import { plainWords } from './shell/wording.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Panel pages anyone may open (sign in, sign up, links from emails). */
    panelPublic?: boolean;
  }
  interface FastifyInstance {
    /** Every /panel route with the action it needs (null: public), in the order they were added. */
    panelRoutes: PanelRoute[];
  }
}

export interface PanelRoute {
  readonly method: string;
  readonly url: string;
  /** The roles table's action a person must hold; null for a public page. */
  readonly action: Action | null;
}

const FORM_LIMIT_BYTES = 64 * 1024;

// Pages are ours alone: no inline script or style, no framing, forms post only here. The script
// may ask this site only (the check form's payee suggestions and amount in words).
const CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v));
  return false;
}

function errorPage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  title: string,
  text: string,
): FastifyReply {
  const signIn = status === 401 ? html`<p><a class="button" href="/panel/sign-in">Sign in</a></p>` : '';
  return sendPage(
    reply,
    page(
      { title, request, narrow: true },
      html`<h1>${title}</h1><p>${text}</p>${signIn}<p><a href="/panel">Back to the panel</a></p>`,
    ),
    status,
  );
}

function handleError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof AppError) {
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    const titles: Record<number, string> = {
      401: 'Sign in first',
      403: 'Not allowed',
      404: 'Not found',
      422: 'Check what you entered',
      429: 'Too many attempts',
      503: 'Try again in a moment',
    };
    logUnavailable(request.log, request.id, error);
    const text =
      error.code === 'not_found'
        ? 'There is nothing here, or it belongs to another account or environment.'
        : plainWords(error.message);
    return errorPage(request, reply, error.status, titles[error.status] ?? 'Something is wrong', text);
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return errorPage(request, reply, 413, 'Too much text', 'The form sent more than this page accepts.');
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return errorPage(request, reply, error.statusCode, 'Something is wrong with the request', 'Go back and try again.');
  }
  request.log.error({ err: error, reqId: request.id }, 'panel page failed');
  return errorPage(
    request,
    reply,
    500,
    'Something went wrong',
    `We could not show this page. If it keeps happening, tell the operator this request id: ${request.id}`,
  );
}

/**
 * The action a panel route declares (null for a public page). A page that says neither who may
 * use it nor that anyone may is a mistake: start-up fails, naming it, rather than serve it to
 * every role.
 */
export function declaredAction(route: { method: string | string[]; url: string; config?: unknown }): Action | null {
  const config = (route.config ?? {}) as { action?: unknown; panelPublic?: unknown };
  if (config.panelPublic === true) return null;
  if (typeof config.action === 'string' && isAction(config.action)) return config.action;
  const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
  throw new Error(
    `panel route ${methods} ${route.url} declares no action: give it needs(action) or the panelPublic config`,
  );
}

async function panelScope(scope: FastifyInstance, options: PanelDeps & { routes: PanelRoute[] }): Promise<void> {
  // Only the dependencies go on to the pages (the options also carry this scope's prefix).
  const deps: PanelDeps = { ctx: options.ctx, keys: options.keys, limits: options.limits };
  const { ctx } = deps;
  // Pages are not part of the API's OpenAPI document.
  scope.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
    const action = declaredAction(route);
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method !== 'HEAD') options.routes.push({ method, url: route.url, action });
    }
  });
  await scope.register(cookie);
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
    (_request, body, done) => {
      try {
        done(null, parseForm(String(body)));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  scope.setErrorHandler(handleError);
  scope.setNotFoundHandler((request, reply) =>
    errorPage(request, reply, 404, 'Not found', 'There is no page at this address.'),
  );

  scope.addHook('onRequest', async (request, reply) => {
    reply
      .header('content-security-policy', CSP)
      .header('x-frame-options', 'DENY')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .header('cache-control', 'no-store');
    // Signed out until the session is read, so an error page can still be drawn if reading fails.
    request.panel = { account: null, signedIn: null, sessionToken: null, csrfCookie: '', csrfToken: '' };
    await loadPanelState(ctx, request, reply);
    // An unknown page is answered before any body is read.
    if (request.is404 && request.method !== 'GET' && request.method !== 'HEAD')
      return errorPage(request, reply, 404, 'Not found', 'There is no page at this address.');
    const signedIn = request.panel.signedIn;
    if (request.routeOptions.config.panelPublic === true) return;
    if (signedIn !== null) {
      // Before the body is read and before any handler: a refused person changes nothing.
      const action = request.routeOptions.config.action;
      if (action !== undefined && !may(signedIn.membership, action))
        throw new AppError('forbidden', forbiddenWords(signedIn.membership, action, signedIn.account.company));
      // A required second factor comes before anything else; step-up before the riskiest acts.
      if (await requireEnrolledFactor(ctx, request, reply)) return reply;
      if (request.routeOptions.config.stepUp === true && (await requireRecentFactor(ctx, request, reply))) return reply;
      return;
    }
    // The password was right, the second factor is still owed: only the factor page is open.
    if ((request.panel.pendingFactor ?? null) !== null) {
      if (request.method === 'GET')
        return reply.redirect(`/panel/sign-in/factor?next=${encodeURIComponent(request.url)}`, 303);
      throw new AppError('unauthenticated', 'Enter your second factor first.');
    }
    if (request.method === 'GET') {
      return reply.redirect(`/panel/sign-in?next=${encodeURIComponent(request.url)}`, 303);
    }
    throw new AppError('unauthenticated', 'Your session has ended. Sign in and try again.');
  });
  scope.addHook('preHandler', async (request) => {
    // Ids, filters and fields never reach the database holding NUL (PostgreSQL text refuses it).
    if (hasNul(request.params) || hasNul(request.query)) throw new AppError('not_found', 'Not found.');
    if (request.method === 'POST') checkCsrf(ctx, request);
  });

  // The office's menu, then the developer's (shell/layout.ts), each under the address it links to.
  await scope.register(homePages, deps);
  await scope.register(checksPlugin, under('/checks', deps));
  await scope.register(recordsPlugin, deps);
  await scope.register(checkRegisterListPages, under('/register', deps));
  await scope.register(importsPages, under('/imports', deps));
  await scope.register(positivePayPages, under('/positive-pay', deps));
  await scope.register(positivePayLayoutPages, under('/positive-pay/layouts', deps));
  await scope.register(bankAccountsPlugin, under('/bank-accounts', deps));
  await scope.register(settingsPages, under('/settings', deps));
  await scope.register(policyPages, under('/settings/approvals', deps));
  await scope.register(approvalsPages, under('/approvals', deps));
  await scope.register(auditPages, under('/audit', deps));
  await scope.register(developerPlugin, deps);
  // People, invitation links and the company switcher.
  await scope.register(peoplePlugin, deps);
  // Sign-up, sign-in, verification and password reset: each its own address under /panel.
  await scope.register(accountPages, deps);
  // The second factor: the sign-in step after the password, step-up, and the security page.
  await scope.register(factorProofPages, deps);
  await scope.register(securityPages, deps);
  // The check form's script asks these two (/panel/payees/search, /panel/amount-in-words); their
  // addresses are older than the folders and stay as the script knows them.
  await scope.register(checkLookupPages, deps);
}

export async function registerPanel(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  for (const asset of [STYLESHEET, SCRIPT, ...FACTOR_SCRIPTS]) {
    app.get(asset.path, { schema: { hide: true } }, async (_request, reply) =>
      reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable').send(asset.body),
    );
  }
  // Its address carries no version, so a week rather than a year: a new icon reaches every browser soon.
  app.get(FAVICON.path, { schema: { hide: true } }, async (_request, reply) =>
    reply.type(FAVICON.type).header('cache-control', 'public, max-age=604800').send(FAVICON.body),
  );
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/panel', 302));
  const routes: PanelRoute[] = [];
  app.decorate('panelRoutes', routes);
  await app.register(panelScope, { ...deps, routes, prefix: '/panel' });
}
