// The approval queue (/panel/approvals): checks the company's policy holds, with payee, amount,
// bank account, who wrote them and when, and their preview; approvers and owners approve or
// reject (with a reason) one or many at once. Approving is a person's act: this page is the only
// way a held check is released, never the API.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Check } from '../../domain/check.ts';
import * as approvals from '../../services/approvals/approvals.service.ts';
import * as decisions from '../../services/approvals/decisions.service.ts';
import { AppError } from '../../errors.ts';
import { needs } from '../shell/access.ts';
import { needsRecentFactor } from '../shell/step-up.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { field, fields } from '../shell/form.ts';
import { csrfField, money, page, sendPage, when, withEnv } from '../shell/layout.ts';
import { type Html, html } from '../shell/html.ts';
import { envOf, principalFor } from '../shell/session.ts';

const PER_PAGE = 100;

/** The ticked checks, each with the version the approver saw ("id:version"); anything else is refused. */
function decisionsOf(body: unknown): decisions.Decision[] {
  return fields(body, 'checks').map((value) => {
    const match = /^([A-Za-z0-9_-]{1,64}):([0-9]{1,9})$/.exec(value);
    if (match === null) throw new AppError('validation', 'Reload the page and tick the checks again.');
    return { checkId: match[1] ?? '', version: Number(match[2]) };
  });
}

function row(check: Check, view: approvals.ApprovalView | undefined, timeZone: string, env: 'test' | 'live'): Html {
  const id = `chk-${check.id}`;
  const count = view === undefined ? '' : `${view.approvals.length} of ${view.required}`;
  return html`<tr><td><input type="checkbox" id="${id}" name="checks" value="${check.id}:${String(view?.version ?? 0)}" aria-label="Check ${check.serialNumber}"></td>
<td><a href="${withEnv(`/panel/checks/${encodeURIComponent(check.id)}`, env)}">${check.serialNumber}</a></td>
<td>${check.payeeName ?? ''}</td><td class="num">${money(check.amountCents)}</td><td>${check.bankAccountName}</td>
<td>${view?.writtenBy ?? ''}</td><td>${when(check.createdAt, timeZone)}</td><td>${count}${
    view === undefined || view.approvals.length === 0
      ? ''
      : html` <span class="hint">(${view.approvals.map((a) => a.by).join(', ')})</span>`
  }</td>
<td><a href="${withEnv(`/panel/checks/${encodeURIComponent(check.id)}/pdf`, env)}" target="_blank" rel="noopener">Preview</a></td></tr>`;
}

export async function approvalsPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  app.get('', needs('checks.approve'), async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const waiting = await approvals.listByApproval(ctx, principal, 'pending', PER_PAGE, 1);
    const views = await approvals.approvalViews(
      ctx.db,
      principal,
      waiting.checks.map((c) => c.id),
    );
    const table =
      waiting.checks.length === 0
        ? html`<p>No check is waiting for approval.</p>`
        : html`<form method="post" action="${withEnv('/panel/approvals/approve', env)}">${csrfField(request)}
<div class="table" role="region" aria-label="Checks waiting for approval" tabindex="0"><table><caption class="hint">Oldest last; times in ${principal.timeZone}</caption>
<thead><tr><th scope="col">Pick</th><th scope="col">Check</th><th scope="col">Payee</th><th scope="col">Amount</th><th scope="col">Bank account</th><th scope="col">Written by</th><th scope="col">Written</th><th scope="col">Approvals</th><th scope="col">Preview</th></tr></thead>
<tbody>${waiting.checks.map((c) => row(c, views.get(c.id), principal.timeZone, env))}</tbody></table></div>
<p><button type="submit">Approve the ticked checks</button></p>
<label for="reason">Reason for rejecting</label>
<input id="reason" name="reason" maxlength="500">
<p><button type="submit" formaction="${withEnv('/panel/approvals/reject', env)}">Reject the ticked checks</button></p></form>`;
    const more =
      waiting.total > waiting.checks.length
        ? html`<p class="hint">${String(waiting.total)} checks wait; the newest ${String(PER_PAGE)} are shown.</p>`
        : '';
    const body = html`<h1>Approvals</h1>
<p class="hint">Checks your company's approval policy holds. A check you wrote is approved by someone else; a check that needs two approvals needs two different people. A rejected check can only be voided or deleted.</p>
${table}${more}`;
    return sendPage(reply, page({ title: 'Approvals', request, current: 'approvals', env }, body));
  });

  const decide = async (request: FastifyRequest, reject: boolean): Promise<string> => {
    const env = envOf(request);
    const ticked = decisionsOf(request.body);
    if (ticked.length === 0) throw new AppError('validation', 'Tick at least one check.');
    const principal = principalFor(request, env);
    if (reject) await decisions.rejectChecks(ctx, principal, ticked, field(request.body, 'reason'));
    else await decisions.approveChecks(ctx, principal, ticked);
    return withEnv(`/panel/approvals?notice=${reject ? 'checks-rejected' : 'checks-approved'}`, env);
  };

  // Approving releases money: the second factor again when this session proved it over ten minutes ago.
  app.post('/approve', needsRecentFactor('checks.approve'), async (request, reply) =>
    reply.redirect(await decide(request, false), 303),
  );
  app.post('/reject', needsRecentFactor('checks.approve'), async (request, reply) =>
    reply.redirect(await decide(request, true), 303),
  );
  const back = (request: FastifyRequest): string => withEnv('/panel/approvals', envOf(request));
  app.get('/approve', needs('checks.approve'), async (request, reply) => reply.redirect(back(request), 303));
  app.get('/reject', needs('checks.approve'), async (request, reply) => reply.redirect(back(request), 303));
}
