// The invitation link (/panel/join/:token). GET only shows what the link offers (mail scanners
// fetch links); the button posts. A new email sets a name and password and is signed in; someone
// who already has a sign-in signs in first (the ordinary sign-in, every step of it) and comes back;
// a used, expired, revoked or unknown link gets its own page and nothing is written.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { originOf } from '../../domain/audit.ts';
import { ROLE_NAMES } from '../../domain/people/roles.ts';
import { AppError } from '../../errors.ts';
import * as invitationsService from '../../services/people/invitations.service.ts';
import * as peopleService from '../../services/people/people.service.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { field } from '../shell/form.ts';
import { html, type Html } from '../shell/html.ts';
import { csrfField, page, sendPage } from '../shell/layout.ts';
import { signIn } from '../shell/session.ts';
import { plainWords } from '../shell/wording.ts';

const PUBLIC = { config: { panelPublic: true } };
const MIN_PASSWORD_LENGTH = 10;

type Refusal = invitationsService.DeadInvitation | 'other-person' | 'already-member';

const REFUSALS: Readonly<Record<Refusal, { status: number; title: string; text: string }>> = {
  invalid: {
    status: 404,
    title: 'Invitation not valid',
    text: 'This invitation link is not valid. Ask whoever invited you to send a new one.',
  },
  expired: {
    status: 410,
    title: 'Invitation expired',
    text: 'This invitation has expired (links work for 7 days). Ask whoever invited you to send a new one.',
  },
  used: {
    status: 410,
    title: 'Invitation already used',
    text: 'This invitation was already used: each link works once. Sign in, or ask for a new one.',
  },
  revoked: {
    status: 410,
    title: 'Invitation withdrawn',
    text: 'This invitation was withdrawn by the company. Ask whoever invited you if that is a mistake.',
  },
  'other-person': {
    status: 403,
    title: 'This invitation is for someone else',
    text: 'You are signed in with another email than the one invited. Sign out, then open the link again.',
  },
  'already-member': {
    status: 409,
    title: 'Already in this company',
    text: 'You already belong to this company: nothing to join.',
  },
};

function refusalPage(request: FastifyRequest, reply: FastifyReply, why: Refusal): FastifyReply {
  const r = REFUSALS[why];
  return sendPage(
    reply,
    page(
      { title: r.title, request, narrow: true },
      html`<h1>${r.title}</h1><p>${r.text}</p><p><a href="/panel">Go to the panel</a></p>`,
    ),
    r.status,
  );
}

function offer(live: invitationsService.LiveInvitation): Html {
  return html`<p>You are invited to <strong>${live.company}</strong> as <strong>${ROLE_NAMES[live.role]}</strong>${live.approves ? ' (also approving checks)' : ''}, with the email ${live.email}.</p>`;
}

function joinPage(
  request: FastifyRequest,
  token: string,
  live: invitationsService.LiveInvitation,
  problem?: string,
  name = '',
): string {
  const action = `/panel/join/${token}`;
  const signedIn = request.panel.signedIn;
  let body: Html;
  if (signedIn !== null && signedIn.person.email === live.email) {
    body = html`<form method="post" action="${action}" class="card">${csrfField(request)}
<button type="submit">Join ${live.company}</button></form>`;
  } else if (live.personExists) {
    // Their password proves the email: they sign in as always, then come back to this link.
    body = html`<p>${live.email} already has a checkwriter sign-in. Sign in with it, then join.</p>
<p><a class="button" href="/panel/sign-in?next=${encodeURIComponent(action)}">Sign in to join</a></p>`;
  } else {
    body = html`<form method="post" action="${action}" class="card">${csrfField(request)}
<label for="name">Your name</label><input id="name" name="name" type="text" autocomplete="name" required maxlength="100" value="${name}">
<label for="password">Choose a password <span class="hint">— at least ${MIN_PASSWORD_LENGTH} characters</span></label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}">
<button type="submit">Join ${live.company}</button></form>`;
  }
  return page(
    { title: 'Join a company', request, narrow: true, problem },
    html`<h1>Join ${live.company}</h1>${offer(live)}${body}`,
  );
}

export async function joinPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  app.get('/:token', PUBLIC, async (request, reply) => {
    const { token } = request.params as { token: string };
    const live = await invitationsService.invitationState(ctx, token);
    if (typeof live === 'string') return refusalPage(request, reply, live);
    const signedIn = request.panel.signedIn;
    if (signedIn !== null && signedIn.person.email !== live.email) return refusalPage(request, reply, 'other-person');
    return sendPage(reply, joinPage(request, token, live));
  });

  app.post('/:token', PUBLIC, async (request, reply) => {
    const { token } = request.params as { token: string };
    const signedIn = request.panel.signedIn;
    const name = field(request.body, 'name');
    let outcome: invitationsService.JoinOutcome;
    try {
      outcome = await invitationsService.acceptInvitation(
        ctx,
        token,
        signedIn !== null
          ? { kind: 'signed-in', signedIn }
          : { kind: 'new', name, password: field(request.body, 'password') },
        request.panel.sessionToken,
        originOf(request),
      );
    } catch (error) {
      if (error instanceof AppError && error.code === 'validation') {
        const live = await invitationsService.invitationState(ctx, token);
        if (typeof live === 'string') return refusalPage(request, reply, live);
        return sendPage(reply, joinPage(request, token, live, plainWords(error.message), name), 422);
      }
      throw error;
    }
    if (!outcome.joined) {
      if (outcome.why === 'sign-in-first')
        return reply.redirect(`/panel/sign-in?next=${encodeURIComponent(`/panel/join/${token}`)}`, 303);
      return refusalPage(request, reply, outcome.why);
    }
    if (signedIn === null) {
      // A new person: signed in to the company they joined, by the ordinary session start.
      const joined = await peopleService.signedInAs(ctx, outcome.accountId, outcome.personId);
      if (joined !== undefined) await signIn(ctx, request, reply, joined);
    }
    return reply.redirect('/panel?notice=joined', 303);
  });
}
