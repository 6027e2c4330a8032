// The company's people (/panel/people): everyone in it with their role, whether they also approve
// and when they were last seen; the invitations still waiting; and, for owners and admins, the
// invite form, role changes, removal and revoking. Everyone may read the list (an auditor sees who
// can act); only `people.manage` changes it, and any person may leave.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { originOf } from '../../domain/audit.ts';
import {
  isRole,
  may,
  mayGrant,
  mayManage,
  ROLE_NAMES,
  ROLES,
  type Membership,
  type Role,
} from '../../domain/people/roles.ts';
import { AppError } from '../../errors.ts';
import * as team from '../../services/people/team.service.ts';
import { needs } from '../shell/access.ts';
import { needsRecentFactor } from '../shell/step-up.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { field } from '../shell/form.ts';
import { html, type Html } from '../shell/html.ts';
import { csrfField, page, sendPage, when } from '../shell/layout.ts';
import { signedInOf } from '../shell/session.ts';
import { plainWords } from '../shell/wording.ts';

const NOTICES: Readonly<Record<string, string>> = {
  invited: 'The invitation is on its way. The link works for 7 days, once.',
  'role-changed': 'The role is changed. Their open sessions in this company have ended.',
  removed: 'The person is removed. Their open sessions in this company have ended.',
  revoked: 'The invitation is revoked: its link no longer works.',
};

function roleLabel(m: Membership): string {
  return `${ROLE_NAMES[m.role]}${m.approves ? ', also approves' : ''}`;
}

function roleOptions(grantable: readonly Role[], selected: Role): Html[] {
  return grantable.map(
    (r) => html`<option value="${r}"${r === selected ? html` selected` : ''}>${ROLE_NAMES[r]}</option>`,
  );
}

function memberRow(
  request: FastifyRequest,
  member: team.MemberRow,
  manager: Membership,
  self: string,
  timeZone: string,
): Html {
  const name = member.name.trim() === '' ? member.email : member.name;
  const canChange = may(manager, 'people.manage') && mayManage(manager.role, member.role) && member.id !== self;
  const grantable = ROLES.filter((r) => mayGrant(manager.role, r));
  const actions = canChange
    ? html`<form method="post" action="/panel/people/${member.id}/role" class="inline">${csrfField(request)}
<input type="hidden" name="from" value="${member.role}"><input type="hidden" name="fromApproves" value="${member.approves ? '1' : '0'}">
<select id="role-${member.id}" name="role" aria-label="Role of ${name}">${roleOptions(grantable, member.role)}</select>
<label><input type="checkbox" name="approves" value="1" aria-label="${name} also approves"${member.approves ? html` checked` : ''}> Also approves</label>
<button class="small" type="submit" aria-label="Change the role of ${name}">Change role</button></form>
<form method="post" action="/panel/people/${member.id}/remove" class="inline">${csrfField(request)}<button class="small danger" type="submit" aria-label="Remove ${name}">Remove</button></form>`
    : member.id === self
      ? html`<form method="post" action="/panel/people/leave" class="inline">${csrfField(request)}<input type="hidden" name="confirm" value="leave"><button class="small danger" type="submit">Leave this company</button></form>`
      : '';
  return html`<tr><td>${name}${member.id === self ? ' (you)' : ''}</td><td>${member.email}</td><td>${roleLabel(member)}</td>
<td>${when(member.lastSeenAt, timeZone)}</td><td>${actions}</td></tr>`;
}

function inviteForm(request: FastifyRequest, manager: Membership, values: Record<string, string>): Html {
  const grantable = ROLES.filter((r) => mayGrant(manager.role, r));
  const selected = isRole(values.role ?? '') ? (values.role as Role) : 'accountant';
  return html`<form method="post" action="/panel/people/invite" class="card"><h2>Invite someone</h2>${csrfField(request)}
<label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required maxlength="254" value="${values.email ?? ''}">
<label for="invite-role">Role</label><select id="invite-role" name="role">${roleOptions(grantable, selected)}</select>
<label><input type="checkbox" name="approves" value="1"${values.approves === '1' ? html` checked` : ''}> Also approves checks <span class="hint">— accountants and admins only</span></label>
<fieldset><legend>Send the link</legend>
<label><input type="radio" name="via" value="email"${values.via === 'sandbox' ? '' : html` checked`}> By email</label>
<label><input type="radio" name="via" value="sandbox"${values.via === 'sandbox' ? html` checked` : ''}> To the sandbox inbox <span class="hint">— to try it out; nothing is sent</span></label>
</fieldset>
<button type="submit">Send the invitation</button></form>`;
}

export async function peoplePages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  const listPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    options: { problem?: string; status?: number; values?: Record<string, string> } = {},
  ): Promise<FastifyReply> => {
    const signedIn = signedInOf(request);
    const { account, membership } = signedIn;
    const manages = may(membership, 'people.manage');
    const members = (await team.membersOf(ctx, account.id)).sort(
      (a, b) => ROLES.indexOf(a.role) - ROLES.indexOf(b.role),
    );
    const waiting = await team.pendingInvitations(ctx, account.id);
    const query = request.query as Record<string, unknown> | undefined;
    const notice = typeof query?.notice === 'string' ? NOTICES[query.notice] : undefined;
    const invitationsTable =
      waiting.length === 0
        ? html`<p>No invitations waiting.</p>`
        : html`<div class="table"><table><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Expires</th><th scope="col">Revoke</th></tr></thead>
<tbody>${waiting.map(
            (i) =>
              html`<tr><td>${i.email}</td><td>${roleLabel(i)}</td><td>${when(i.expiresAt, account.timeZone)}</td><td>${
                manages
                  ? html`<form method="post" action="/panel/people/invitations/${i.id}/revoke">${csrfField(request)}<button class="small danger" type="submit" aria-label="Revoke the invitation of ${i.email}">Revoke</button></form>`
                  : '—'
              }</td></tr>`,
          )}</tbody></table></div>`;
    const body = html`<h1>People of ${account.company}</h1>
<p class="hint">Your role: ${roleLabel(membership)}. ${manages ? 'Owners and admins invite people and change roles; only an owner makes owners.' : 'Owners and admins invite people and change roles.'}</p>
<div class="table"><table><caption class="hint">Last seen in ${account.timeZone}</caption><thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Last seen</th><th scope="col">Change</th></tr></thead>
<tbody>${members.map((m) => memberRow(request, m, membership, signedIn.person.id, account.timeZone))}</tbody></table></div>
<h2>Invitations waiting</h2>${invitationsTable}
${manages ? inviteForm(request, membership, options.values ?? {}) : ''}`;
    return sendPage(
      reply,
      page({ title: 'People', request, current: 'people', problem: options.problem, notice }, body),
      options.status ?? 200,
    );
  };

  /** A refusal the person can mend (a bad email, someone already in, a race lost) is shown on the page. */
  const onPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    work: () => Promise<string>,
    values?: Record<string, string>,
  ): Promise<FastifyReply> => {
    try {
      return reply.redirect(`/panel/people?notice=${await work()}`, 303);
    } catch (error) {
      if (error instanceof AppError && (error.code === 'validation' || error.code === 'conflict'))
        return listPage(request, reply, { problem: plainWords(error.message), status: error.status, values });
      throw error;
    }
  };

  app.get('', needs('read'), async (request, reply) => listPage(request, reply));

  app.post('/invite', needs('people.manage'), async (request, reply) => {
    const values = {
      email: field(request.body, 'email'),
      role: field(request.body, 'role'),
      approves: field(request.body, 'approves'),
      via: field(request.body, 'via'),
    };
    return onPage(
      request,
      reply,
      async () => {
        if (!isRole(values.role)) throw new AppError('validation', 'Choose a role.');
        await team.invite(
          ctx,
          signedInOf(request),
          {
            email: values.email,
            role: values.role,
            approves: values.approves === '1',
            via: values.via === 'sandbox' ? 'sandbox' : 'email',
          },
          originOf(request),
        );
        return 'invited';
      },
      values,
    );
  });

  app.post('/invitations/:id/revoke', needs('people.manage'), async (request, reply) => {
    const { id } = request.params as { id: string };
    await team.revokeInvitation(ctx, signedInOf(request), id, originOf(request));
    return reply.redirect('/panel/people?notice=revoked', 303);
  });

  // A role change grants or takes power over money: it asks for a recent second factor.
  app.post('/:personId/role', needsRecentFactor('people.manage'), async (request, reply) => {
    const { personId } = request.params as { personId: string };
    const role = field(request.body, 'role');
    const from = field(request.body, 'from');
    if (!isRole(role) || !isRole(from)) throw new AppError('validation', 'Choose a role.');
    return onPage(request, reply, async () => {
      await team.changeRole(
        ctx,
        signedInOf(request),
        personId,
        { role: from, approves: field(request.body, 'fromApproves') === '1' },
        { role, approves: field(request.body, 'approves') === '1' },
        originOf(request),
      );
      return 'role-changed';
    });
  });

  app.post('/:personId/remove', needs('people.manage'), async (request, reply) => {
    const { personId } = request.params as { personId: string };
    const signedIn = signedInOf(request);
    // Leaving is its own button (below): this form removes others.
    if (personId === signedIn.person.id) throw new AppError('not_found', 'Not found.');
    return onPage(request, reply, async () => {
      await team.removePerson(ctx, signedIn, personId, originOf(request));
      return 'removed';
    });
  });

  app.post('/leave', needs('read'), async (request, reply) => {
    // The button says what it does; a post without it (a stray or forged form) leaves nobody.
    if (field(request.body, 'confirm') !== 'leave')
      throw new AppError('validation', 'Use the "Leave this company" button on the people page.');
    const signedIn = signedInOf(request);
    try {
      await team.removePerson(ctx, signedIn, signedIn.person.id, originOf(request));
    } catch (error) {
      if (error instanceof AppError && error.code === 'conflict')
        return listPage(request, reply, { problem: plainWords(error.message), status: 409 });
      throw error;
    }
    // Their session here ended with the membership: the browser is signed out of this company.
    reply.clearCookie('cw_session', { path: '/' });
    return reply.redirect('/panel/sign-in?notice=signed-out', 303);
  });
}
