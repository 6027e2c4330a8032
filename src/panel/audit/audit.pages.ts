// The audit trail (/panel/audit): who did what, from where, with the fields changed — filtered by
// who, action, object and dates, newest first, a page at a time; the same filter as a CSV file.
// The records are the company's whole (both environments), read only: nothing here writes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditRecord } from '../../domain/audit.ts';
import { auditCsv, changesText } from '../../formats/audit-csv.ts';
import * as auditService from '../../services/audit.service.ts';
import { needs } from '../shell/access.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { type Html, html } from '../shell/html.ts';
import { page, sendPage, when } from '../shell/layout.ts';
import { accountOf } from '../shell/session.ts';

const PER_PAGE = 50;
const FILTERS = ['actor', 'action', 'objectType', 'objectId', 'from', 'to'] as const;
type Filter = (typeof FILTERS)[number];

/** The filters as given in the query, each a short trimmed text (anything else is ignored). */
function queryOf(request: FastifyRequest): Partial<Record<Filter, string>> & { before?: number } {
  const q = (request.query ?? {}) as Record<string, unknown>;
  const out: Partial<Record<Filter, string>> & { before?: number } = {};
  for (const name of FILTERS) {
    const value = q[name];
    if (typeof value === 'string' && value.trim() !== '') out[name] = value.trim().slice(0, 200);
  }
  const before = typeof q.before === 'string' ? Number(q.before) : Number.NaN;
  if (Number.isSafeInteger(before) && before > 0) out.before = before;
  return out;
}

function queryString(values: Partial<Record<Filter, string>>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const name of FILTERS) if (values[name] !== undefined) params.set(name, values[name] ?? '');
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** A table of records; `who` first, as a reader asks "who did this?" first. */
export function trailTable(records: readonly AuditRecord[], timeZone: string, caption: string): Html {
  // Long values (user agents, ids) can make the table wider than the page: the region then
  // scrolls, so it takes the keyboard's focus and has a name (WCAG 2.1.1).
  return html`<div class="table" role="region" aria-label="${caption}" tabindex="0"><table><caption class="hint">${caption}</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Object</th><th scope="col">Changes</th><th scope="col">From</th></tr></thead>
<tbody>${records.map(
    (
      r,
    ) => html`<tr><td>${when(r.at, timeZone)}</td><td>${r.actorLabel}${r.role === '' ? '' : html` <span class="hint">(${r.role})</span>`}</td>
<td>${r.action}</td><td>${r.objectType} <code>${r.objectId}</code></td><td>${changesText(r)}</td>
<td>${r.ip}${r.requestId === '' ? '' : html` <span class="hint">request ${r.requestId}</span>`}</td></tr>`,
  )}</tbody></table></div>`;
}

export async function auditPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  app.get('', needs('audit.read'), async (request, reply) => {
    const account = accountOf(request);
    const query = queryOf(request);
    const { before, ...filters } = query;
    const [trail, choices] = await Promise.all([
      auditService.trailPage(ctx, account.id, account.timeZone, filters, PER_PAGE, before),
      auditService.trailChoices(ctx, account.id),
    ]);
    const option = (value: string, chosen: string | undefined): Html =>
      html`<option value="${value}"${value === chosen ? html` selected` : ''}>${value}</option>`;
    const form = html`<form method="get" action="/panel/audit" class="card filters"><h2>Filter</h2>
<label for="actor">Who</label>
<select id="actor" name="actor"><option value="">Anyone</option>${choices.actors.map((a) => option(a, filters.actor))}</select>
<label for="action">Action</label>
<select id="action" name="action"><option value="">Any action</option>${choices.actions.map((a) => option(a, filters.action))}</select>
<label for="objectType">Object type <span class="hint">(check, bank-account, api-key…)</span></label>
<input id="objectType" name="objectType" value="${filters.objectType ?? ''}">
<label for="objectId">Object id</label>
<input id="objectId" name="objectId" value="${filters.objectId ?? ''}">
<label for="from">From <span class="hint">(included)</span></label>
<input id="from" name="from" type="date" value="${filters.from ?? ''}">
<label for="to">To <span class="hint">(included)</span></label>
<input id="to" name="to" type="date" value="${filters.to ?? ''}">
<p><button type="submit">Show</button> <a href="/panel/audit">Clear the filter</a></p></form>`;
    const list =
      trail.items.length === 0
        ? html`<p>No records match.</p>`
        : trailTable(trail.items, account.timeZone, `Newest first; times in ${account.timeZone}`);
    const older =
      trail.older === null
        ? ''
        : html`<nav class="pager" aria-label="Pages"><a href="/panel/audit${queryString(filters, { before: String(trail.older) })}" rel="next">Older →</a></nav>`;
    const body = html`<h1>Audit trail</h1>
<p class="hint">Every sign-in, key, bank account, setting and check step, with who did it and from where. Records are never changed or removed; <code>npx checkwriter audit verify</code> checks that none was.</p>
${form}
<p><a href="/panel/audit/export.csv${queryString(filters)}" download>Download these records as CSV</a></p>
${list}${older}`;
    return sendPage(reply, page({ title: 'Audit trail', request, current: 'audit' }, body));
  });

  app.get('/export.csv', needs('audit.read'), async (request, reply) => {
    const account = accountOf(request);
    const { before: _before, ...filters } = queryOf(request);
    const records = await auditService.trailRecords(ctx, account.id, account.timeZone, filters);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="audit-trail.csv"')
      .send(auditCsv(records));
  });
}
