// Custom positive pay layouts: an office types its bank's layout from the bank's spec sheet (one
// field after another, separated by semicolons, docs/positive-pay.md "Custom layouts"), sees a sample record written by the same
// writer as the real files, and chooses the layout on a bank account's page. A layout with
// problems is answered 422 with each problem under its field, and nothing is stored.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Environment } from '../../domain/owner.ts';
import { DATE_FORMATS } from '../../formats/positive-pay-layouts/layout.ts';
import { fieldLines } from '../../formats/positive-pay-layouts/field-lines.ts';
import * as layouts from '../../services/positive-pay-layouts.service.ts';
import { needs } from '../shell/access.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { field } from '../shell/form.ts';
import { type Html, html } from '../shell/html.ts';
import { csrfField, page, sendPage, when, withEnv } from '../shell/layout.ts';
import { accountOf, envOf, principalFor } from '../shell/session.ts';

type Place = layouts.LayoutPlace;

const RECORD_LABELS: Readonly<Record<string, string>> = {
  fixed: 'Fixed width',
  comma: 'Delimited, comma (,)',
  pipe: 'Delimited, pipe (|)',
  tab: 'Delimited, tab',
  semicolon: 'Delimited, semicolon (;)',
};

const EMPTY: layouts.LayoutForm = {
  name: '',
  record: 'fixed',
  issueCode: 'I',
  voidCode: 'V',
  header: '',
  detail: '',
  trailer: '',
};

const NOTICES: Readonly<Record<string, string>> = {
  'layout-added': 'The layout is saved: choose it on a bank account’s page to use it.',
  'layout-deleted': 'The layout is deleted; bank accounts that used it have no layout chosen now.',
};

function recordLabel(layout: layouts.CustomLayout['layout']): string {
  if (layout.record.kind === 'fixed') return RECORD_LABELS.fixed ?? '';
  const d = layout.record.delimiter;
  return RECORD_LABELS[d === ',' ? 'comma' : d === '|' ? 'pipe' : d === '\t' ? 'tab' : 'semicolon'] ?? '';
}

function preview(layout: layouts.CustomLayout['layout']): Html {
  const sample = layouts.samplePreview(layout);
  return 'text' in sample
    ? html`<pre class="sample">${sample.text}</pre>`
    : html`<p class="problem">The sample check does not fit: ${sample.problem}.</p>`;
}

export async function positivePayLayoutPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  const layoutsPage = async (
    request: FastifyRequest,
    env: Environment,
    values: layouts.LayoutForm,
    problems: readonly layouts.PlacedProblem[] = [],
  ): Promise<string> => {
    const principal = principalFor(request, env);
    const saved = await layouts.listLayouts(ctx, principal);
    const at = (place: Place): string[] => problems.filter((p) => p.place === place).map((p) => p.message);
    const error = (place: Place): Html | '' =>
      at(place).length === 0
        ? ''
        : html`<ul class="problem" id="${place}-error">${at(place).map((m) => html`<li>${m}</li>`)}</ul>`;
    const invalid = (place: Place): Html | '' =>
      at(place).length === 0 ? '' : html` aria-invalid="true" aria-describedby="${place}-error"`;
    const text = (place: Place, label: string, hint: string): Html =>
      html`<label for="${place}">${label} <span class="hint">(${hint})</span></label>
<input id="${place}" name="${place}" spellcheck="false" autocomplete="off" value="${values[place]}"${invalid(place)}${place === 'detail' ? html` required` : ''}>${error(place)}`;
    const list =
      saved.length === 0
        ? html`<p>No custom layouts yet.</p>`
        : saved.map(
            (l) => html`<section class="card"><h3>${l.name}</h3>
<p class="hint">${recordLabel(l.layout)}; issue code “${l.layout.codes.issue}”, void code “${l.layout.codes.void}”; added ${when(l.createdAt, principal.timeZone)} by ${l.createdBy}.</p>
<details><summary>Fields</summary><p><code>${fieldLines(l.layout.detail)}</code></p></details>
<p>A sample check (account 123456789, check 1001, January 15 2026, $1,234.56, “Sample Payee Inc”) in a file written January 20 2026:</p>${preview(l.layout)}
<form method="post" action="/panel/positive-pay/layouts/${encodeURIComponent(l.id)}/delete">${csrfField(request)}<input type="hidden" name="env" value="${env}">
<button type="submit" class="secondary">Delete ${l.name}</button></form></section>`,
          );
    const body = html`<p><a href="${withEnv('/panel/positive-pay', env)}">← Positive pay</a></p>
<h1>Positive pay layouts</h1>
<p class="hint">Your bank's own file layout, typed from its positive pay spec sheet. Choose a layout on each bank account's page; exports in the “Each bank account's chosen layout” format then use it. Layouts belong to the company (test and live).</p>
<h2>Your layouts</h2>${list}
<form method="post" action="/panel/positive-pay/layouts" class="card"><h2>Add a layout</h2>${csrfField(request)}
<input type="hidden" name="env" value="${env}">
<label for="name">Name</label>
<input id="name" name="name" required maxlength="${layouts.MAX_NAME_LENGTH}" value="${values.name}"${invalid('name')}>${error('name')}
<label for="record">Record</label>
<select id="record" name="record"${invalid('record')}>${Object.entries(RECORD_LABELS).map(
      ([value, label]) =>
        html`<option value="${value}"${value === values.record ? html` selected` : ''}>${label}</option>`,
    )}</select>${error('record')}
<label for="issueCode">Issue code</label>
<input id="issueCode" name="issueCode" maxlength="10" value="${values.issueCode}"${invalid('issueCode')}>${error('issueCode')}
<label for="voidCode">Void code</label>
<input id="voidCode" name="voidCode" maxlength="10" value="${values.voidCode}"${invalid('voidCode')}>${error('voidCode')}
<div class="hint"><p>The record's fields in order, separated by semicolons, each <code>source[:format] [width] [left|right] [zero|space]</code>. Sources: <code>accountNumber</code>, <code>routingNumber</code>, <code>checkNumber</code>, <code>amount:cents</code> or <code>amount:decimal</code>, <code>issueDate:FORMAT</code> (${DATE_FORMATS.join(', ')}), <code>issueOrFileDate:FORMAT</code> (the issue date, or for a void the day the file is written), <code>payee</code>, <code>payeeLine1 WIDTH</code> and <code>payeeLine2</code> (the payee over two fields, broken at a space), <code>code</code> (the issue or void code), <code>literal:"TEXT"</code>, <code>filler</code>, <code>fileDate:FORMAT</code> (the day the file is written, in any record); in a header or trailer also <code>recordCount</code>, <code>totalAmount:cents</code> and <code>checkNumberTotal</code> (the sum of the check numbers). Numbers are right-aligned and zero-filled unless told; fixed-width fields all need a width. Entries starting with # are notes.</p>
<p>Example: <code>code 1; accountNumber 10; checkNumber 10; amount:cents 12; issueDate:MMDDYYYY 8; payee 30</code>.</p></div>
${text('header', 'Header record', 'optional')}
${text('detail', 'Check record', 'required')}
${text('trailer', 'Trailer record', 'optional')}
<p><button type="submit">Check and save the layout</button></p></form>`;
    const query = request.query as Record<string, unknown> | undefined;
    const notice = typeof query?.notice === 'string' ? NOTICES[query.notice] : undefined;
    return page(
      {
        title: 'Positive pay layouts',
        request,
        current: 'positive-pay',
        env,
        ...(notice === undefined ? {} : { notice }),
        ...(problems.length === 0 ? {} : { problem: 'The layout was not saved: see the problems under its fields.' }),
      },
      body,
    );
  };

  app.get('', needs('read'), async (request, reply) =>
    sendPage(reply, await layoutsPage(request, envOf(request), EMPTY)),
  );

  app.post('', needs('positive-pay.send'), async (request, reply) => {
    const env = envOf(request);
    const values: layouts.LayoutForm = {
      name: field(request.body, 'name'),
      record: field(request.body, 'record'),
      issueCode: field(request.body, 'issueCode'),
      voidCode: field(request.body, 'voidCode'),
      header: field(request.body, 'header'),
      detail: field(request.body, 'detail'),
      trailer: field(request.body, 'trailer'),
    };
    const result = await layouts.createLayout(ctx, principalFor(request, env), accountOf(request).email, values);
    if ('problems' in result) return sendPage(reply, await layoutsPage(request, env, values, result.problems), 422);
    return reply.redirect(withEnv('/panel/positive-pay/layouts?notice=layout-added', env), 303);
  });

  app.post('/:id/delete', needs('positive-pay.send'), async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    await layouts.deleteLayout(ctx, principalFor(request, env), id);
    return reply.redirect(withEnv('/panel/positive-pay/layouts?notice=layout-deleted', env), 303);
  });
}
