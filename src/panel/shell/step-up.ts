// Step-up and the second factor's gates, beside `needs()` (access.ts): the riskiest acts — a bank
// account or signature added or changed, a live API key, a role changed, a check approved — ask
// for the factor again when this session last proved it more than ten minutes ago
// (services/people/second-factor.service.ts STEP_UP_MS). A stolen session cookie alone then moves
// no money (docs/security.md, "The phished session").
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Action } from '../../domain/people/roles.ts';
import { AppError } from '../../errors.ts';
import type { ServiceContext } from '../../services/context.ts';
import * as secondFactor from '../../services/people/second-factor.service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route asks for a recent second factor (step-up) besides its action. */
    stepUp?: boolean;
    /** Open to a person who must enrol a second factor and has none yet (the enrolment pages). */
    factorEnrolment?: boolean;
  }
}

/** Route options: `action` as `needs()` gives it, and a second factor proven in the last ten minutes. */
export function needsRecentFactor(action: Action): { config: { action: Action; stepUp: true } } {
  return { config: { action, stepUp: true } };
}

/** Route options of the enrolment pages: `action`, and reachable before a required factor exists. */
export function enrolmentPage(action: Action): { config: { action: Action; factorEnrolment: true } } {
  return { config: { action, factorEnrolment: true } };
}

/** Only our own panel paths are returned to (no open redirect). */
export function panelPath(candidate: string): string | null {
  return /^\/panel(\/|\?|$)/.test(candidate) && !candidate.startsWith('//') ? candidate : null;
}

/**
 * Where to return after the factor: a GET returns to itself; a form returns to the page it was
 * sent from (its body is not kept: the person sends it again, knowingly).
 */
export function returnPath(request: FastifyRequest): string {
  if (request.method === 'GET') return panelPath(request.url) ?? '/panel';
  const referer = request.headers.referer;
  if (typeof referer === 'string') {
    try {
      const url = new URL(referer);
      if (url.hostname === request.hostname) return panelPath(`${url.pathname}${url.search}`) ?? '/panel';
    } catch {
      // not a URL: fall back to the panel's home
    }
  }
  return '/panel';
}

/**
 * Step-up inside a handler: when this session's factor is older than ten minutes, sends the
 * person to prove it again (and back to where they were) and answers true — the handler returns
 * the reply then, having changed nothing. Answers false when the act may go on.
 *
 *   if (await requireRecentFactor(ctx, request, reply)) return reply;
 */
export async function requireRecentFactor(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const signedIn = request.panel.signedIn;
  if (signedIn === null) throw new AppError('unauthenticated', 'Your session has ended. Sign in and try again.');
  if (!(await secondFactor.stepUpDue(ctx, signedIn.person.id, signedIn.factorAt ?? null))) return false;
  await reply.redirect(`/panel/step-up?next=${encodeURIComponent(returnPath(request))}`, 303);
  return true;
}

/**
 * A person who must have a second factor in this company and has none is sent to enrol before
 * anything else (signing out stays open). Answers true when it sent them.
 */
export async function requireEnrolledFactor(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const signedIn = request.panel.signedIn;
  // A session that proved a factor has one; the config switch spares every other query.
  if (signedIn === null || (signedIn.factorAt ?? null) !== null || !ctx.config.secondFactorRequired) return false;
  if (request.routeOptions.config.factorEnrolment === true) return false;
  if (!(await secondFactor.factorRequired(ctx, signedIn.account.id, signedIn.membership))) return false;
  if (await secondFactor.hasFactor(ctx.db, signedIn.person.id)) return false;
  if (request.method === 'GET') {
    await reply.redirect('/panel/security?notice=factor-required', 303);
    return true;
  }
  throw new AppError('forbidden', 'Set up a second factor first: your role in this company requires one.');
}
