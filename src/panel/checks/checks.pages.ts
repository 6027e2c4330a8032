// Checks: the list with GET /checks's filters and paging (perPage, page, term, status,
// referenceId) and its print form (a checkbox a row; print.pages.ts prints), and a check's page
// with its statements, deliveries, PDF and Print/Reprint form.
import { needs } from '../shell/access.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { amountInWords } from '../../domain/amount-words.ts';
import { CHECK_STATUSES, canPrint, statusCode, statusDescription, statusName } from '../../domain/check-status.ts';
import { MAX_PER_PAGE, MAX_TERM_LENGTH } from '../../domain/paging.ts';
import type { Check } from '../../domain/check.ts';
import * as checkList from '../../services/checks/list.service.ts';
import * as checkService from '../../services/checks/write.service.ts';
import * as deliveryService from '../../services/delivery.service.ts';
import * as printService from '../../services/checks/print.service.ts';
import * as auditService from '../../services/audit.service.ts';
import { trailTable } from '../audit/audit.pages.ts';
import { html, type Html } from '../shell/html.ts';
import { listFilters, MAX_REFERENCE_ID, type ListFilters } from '../shell/list-query.ts';
import { money, page, pager, sendPage, when, withEnv } from '../shell/layout.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { checkPrintForm, listPrintFormEnd, listPrintFormStart, printCheckbox } from './print-forms.ts';
import { checkActions } from './write/confirm.pages.ts';
import { envOf, principalFor } from '../shell/session.ts';
import type { ServiceContext } from '../../services/context.ts';
import * as approvals from '../../services/approvals/approvals.service.ts';
import { NOT_REQUIRED, type CheckApproval, type ListedApprovalState } from '../../domain/approvals/policy.ts';
import { APPROVAL_FILTER_NAMES, approvalFilter, approvalWords } from '../approvals/approval-words.ts';
import { DEFAULT_PRINT_OPTIONS, type PrintOptions } from '../../render/print-layout.ts';

function statusBadge(code: number): Html {
  const name = statusName(code);
  const tone = name === 'void' || name === 'refunded' ? 'bad' : name === 'new' ? 'wait' : 'ok';
  return html`<span class="status ${tone}" title="${statusDescription(code)}">${name}</span>`;
}

function filterForm(request: FastifyRequest, f: ListFilters, approval: ListedApprovalState | null): Html {
  const env = envOf(request);
  return html`<form method="get" action="/panel/checks" class="card" role="search" aria-label="Filter checks">
${env === 'live' ? html`<input type="hidden" name="env" value="live">` : ''}
<div class="row">
<div><label for="term">Search <span class="hint">payee, memo, number, amount</span></label><input id="term" name="term" type="search" value="${f.term}" maxlength="${MAX_TERM_LENGTH}"></div>
<div><label for="status">Status</label><select id="status" name="status"><option value="">Any</option>${CHECK_STATUSES.map(
    (s) => html`<option value="${s}"${f.status === s ? html` selected` : ''}>${s}</option>`,
  )}</select></div>
<div><label for="approval">Approval</label><select id="approval" name="approval"><option value="">Any</option>${(
    Object.entries(APPROVAL_FILTER_NAMES) as [ListedApprovalState, string][]
  ).map(
    ([v, label]) => html`<option value="${v}"${approval === v ? html` selected` : ''}>${label}</option>`,
  )}</select></div>
<div><label for="referenceId">Reference id</label><input id="referenceId" name="referenceId" type="text" value="${f.referenceId}" maxlength="${MAX_REFERENCE_ID}"></div>
<div><label for="perPage">Per page</label><input id="perPage" name="perPage" type="number" min="1" max="${MAX_PER_PAGE}" value="${f.perPage}"></div>
<div><button type="submit">Show</button></div></div></form>`;
}

function checksTable(
  checks: readonly Check[],
  env: 'test' | 'live',
  timeZone: string,
  selected: ReadonlySet<string>,
  held: ReadonlyMap<string, CheckApproval> = new Map(),
): Html {
  if (checks.length === 0) return html`<p>No checks match.</p>`;
  const heldWords = (id: string): Html | '' => {
    const words = approvalWords(held.get(id) ?? NOT_REQUIRED);
    return words === '' ? '' : html` <span class="hint">${words}</span>`;
  };
  return html`<div class="table"><table>
<thead><tr><th scope="col">Print</th><th scope="col">Number</th><th scope="col">Date</th><th scope="col">Payee</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Reference</th><th scope="col">Created</th></tr></thead>
<tbody>${checks.map(
    (
      c,
    ) => html`<tr><td>${printCheckbox(c, selected.has(c.id))}</td><td><a href="${withEnv(`/panel/checks/${c.id}`, env)}">${c.serialNumber}</a></td><td>${c.issueDate}</td><td>${c.payeeName ?? '—'}</td>
<td class="num">${money(c.amountCents)}</td><td>${statusBadge(c.status)}${heldWords(c.id)}</td><td>${c.referenceId ?? ''}</td><td>${when(c.createdAt, timeZone)}</td></tr>`,
  )}</tbody></table></div>`;
}

export interface ListPrintState {
  /** Why the last print was refused, shown by the Print button. */
  readonly problem?: string;
  /** Checks still ticked after a refused print. */
  readonly selected?: ReadonlySet<string>;
  readonly chosen?: PrintOptions;
}

/**
 * The checks list, with the filters and page of the request's query. Also answers a refused print
 * (print.pages.ts), whose form posts to a URL carrying the same query, with the message and the
 * ticked checks kept.
 */
export async function checksListPage(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  state: ListPrintState = {},
): Promise<FastifyReply> {
  const env = envOf(request);
  const principal = principalFor(request, env);
  const f = listFilters(request.query);
  const approval = approvalFilter(request.query);
  const result =
    approval === null
      ? await checkList.listChecks(ctx, principal, {
          perPage: f.perPage,
          page: f.page,
          term: f.term === '' ? null : f.term,
          status: f.status === null ? null : statusCode(f.status),
          referenceId: f.referenceId === '' ? null : f.referenceId,
        })
      : await approvals.listByApproval(ctx, principal, approval, f.perPage, f.page);
  const held = await approvals.approvalsFor(
    ctx.db,
    principal,
    result.checks.map((c) => c.id),
  );
  const params: Record<string, string> = { perPage: String(f.perPage) };
  if (env === 'live') params.env = 'live';
  if (f.term !== '') params.term = f.term;
  if (f.status !== null) params.status = f.status;
  if (f.referenceId !== '') params.referenceId = f.referenceId;
  if (approval !== null) params.approval = approval;
  const table = checksTable(result.checks, env, principal.timeZone, state.selected ?? new Set(), held);
  const listQuery = new URLSearchParams({ ...params, page: String(f.page) }).toString();
  const body = html`<h1>Checks <span class="hint">(${env})</span></h1>
<p><a class="button" href="${withEnv('/panel/checks/new', env)}">Write a check</a></p>${filterForm(request, f, approval)}
${
  result.checks.length === 0
    ? table
    : html`${listPrintFormStart(request, listQuery, state.chosen ?? DEFAULT_PRINT_OPTIONS, state.problem)}${table}${listPrintFormEnd()}`
}${pager('/panel/checks', params, f.page, f.perPage, result.total)}`;
  return sendPage(
    reply,
    page({ title: 'Checks', request, current: 'checks', env }, body),
    state.problem === undefined ? 200 : 422,
  );
}

export async function checksPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  app.get('', needs('read'), async (request, reply) => checksListPage(ctx, request, reply));

  app.get('/:id', needs('read'), async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const { id } = request.params as { id: string };
    const check = await checkService.getCheck(ctx, principal, id);
    const deliveries = await deliveryService.deliveriesOf(ctx, principal, check);
    const history = await auditService.historyOf(ctx, principal.accountId, 'check', check.id);
    const approval = (await approvals.approvalsFor(ctx.db, principal, [check.id])).get(check.id) ?? NOT_REQUIRED;
    const facts: [string, string | Html][] = [
      ['Status', statusBadge(check.status)],
      ...(approval.status === 'not_required' ? [] : ([['Approval', approvalWords(approval)]] as [string, string][])),
      ['Amount', money(check.amountCents)],
      ['In words', check.amountCents === null ? '—' : amountInWords(check.amountCents)],
      ['Date', check.issueDate],
      ['Pay to', check.payeeName ?? '—'],
      ['Bank account', check.bankAccountName],
      ['Memo', check.memo ?? ''],
      ['Invoice number', check.invoiceNumber ?? ''],
      ['Reference id', check.referenceId ?? ''],
      ['Check id', html`<code>${check.id}</code>`],
    ];
    const statements = html`<div class="table"><table><caption class="hint">Times in ${principal.timeZone}</caption>
<thead><tr><th scope="col">Statement</th><th scope="col">When</th></tr></thead>
<tbody>${check.statements.map((s) => html`<tr><td>${s.status}</td><td>${when(s.at, principal.timeZone)}</td></tr>`)}</tbody></table></div>`;
    const sent =
      deliveries.length === 0
        ? html`<p>Nothing sent for this check.</p>`
        : html`<div class="table"><table><thead><tr><th scope="col">Channel</th><th scope="col">To</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Queued</th><th scope="col">Last error</th></tr></thead>
<tbody>${deliveries.map(
            (d) =>
              html`<tr><td>${d.channel}</td><td>${d.recipient}</td><td>${d.status}</td><td>${d.attempts}</td><td>${when(d.createdAt, principal.timeZone)}</td><td>${d.lastError ?? ''}</td></tr>`,
          )}</tbody></table></div>`;
    const body = html`<p><a href="${withEnv('/panel/checks', env)}">← All checks</a></p>
<h1>Check ${check.serialNumber} <span class="hint">(${env})</span></h1>
${checkPrintForm(request, check, env)}
<p><a href="${withEnv(`/panel/checks/${check.id}/pdf`, env)}" target="_blank" rel="noopener">Preview the PDF</a> <span class="hint">— stamped PREVIEW — NOT PRINTED, and the check stays ${statusName(check.status)}: to put a check on paper, use ${canPrint(check.status) ? 'the print form above' : 'the print form of a new or printed check'}, so positive pay lists it.</span></p>
${checkActions(check, env)}
<section class="card" aria-label="Details"><dl class="facts">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl></section>
<h2>Statements</h2>${statements}<h2>Emails and texts</h2>${sent}
<h2>History</h2>${
      history.length === 0
        ? html`<p>No recorded steps for this check.</p>`
        : trailTable(history, principal.timeZone, `Who did each step, oldest first; times in ${principal.timeZone}`)
    }`;
    return sendPage(reply, page({ title: `Check ${check.serialNumber}`, request, current: 'checks', env }, body));
  });

  app.get('/:id/pdf', needs('read'), async (request, reply) => {
    const { id } = request.params as { id: string };
    // A preview: the check's status does not change (as GET /checks/{id}/pdf), and every page says
    // so on the check's face, since paper from it would be a check positive pay does not list.
    const { pdf, serialNumber } = await printService.checkPdf(ctx, principalFor(request, envOf(request)), id, {
      preview: true,
    });
    // The browser's own PDF viewer shows it; the pages' script policy is not for it.
    reply.removeHeader('content-security-policy');
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="check-${serialNumber}-preview.pdf"`)
      .send(pdf);
  });
}
