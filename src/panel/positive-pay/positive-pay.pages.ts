// Positive pay: choose a bank account, a date range and a layout; the POST answers with the file
// to download and records the export. The page lists past exports (who, when, range, count,
// totals). The same service as POST /api/v3/positive-pay-exports (docs/positive-pay.md).
import { needs } from '../shell/access.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bankAccountLabel } from '../../domain/bank-account.ts';
import { today } from '../../domain/dates.ts';
import { MAX_RANGE_DAYS, isPositivePayFormat } from '../../domain/positive-pay.ts';
import type { Environment } from '../../domain/owner.ts';
import { AppError } from '../../errors.ts';
import * as bankAccountService from '../../services/bank-account.service.ts';
import * as positivePay from '../../services/positive-pay.service.ts';
import { listLayouts } from '../../services/positive-pay-layouts.service.ts';
import { field } from '../shell/form.ts';
import { type Html, html } from '../shell/html.ts';
import { csrfField, money, page, pager, sendPage, when, withEnv } from '../shell/layout.ts';
import { listFilters } from '../shell/list-query.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { accountOf, envOf, principalFor } from '../shell/session.ts';
import { plainWords } from '../shell/wording.ts';

interface FormValues {
  bankAccountId: string;
  from: string;
  to: string;
  format: string;
}

/** The form's fields; a refusal naming one of them is shown next to it. */
const FIELDS = ['bankAccountId', 'from', 'to', 'format'] as const;
type FieldName = (typeof FIELDS)[number];

/** Which field a service message names ("The to field must ..."), if any. */
function fieldOf(message: string): FieldName | null {
  const named = /^The (\w+) field/.exec(message)?.[1];
  return FIELDS.find((f) => f === named) ?? null;
}

const LABELS: Readonly<Record<string, string>> = {
  csv: 'CSV',
  fixed: 'Fixed width (Chase ARP)',
  bank: "Each bank account's chosen layout",
};

export async function positivePayPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  const formPage = async (
    request: FastifyRequest,
    env: Environment,
    values: FormValues,
    errors: Partial<Record<FieldName, string>> = {},
    problem?: string,
  ): Promise<string> => {
    const principal = principalFor(request, env);
    const banks = await bankAccountService.listBankAccounts(ctx, principal, { limit: 500, offset: 0, term: null });
    const bankName = new Map(banks.items.map((b) => [b.id, bankAccountLabel(b)]));
    // Past exports name the layout written; a custom one by its id, shown by its name.
    const layoutName = new Map((await listLayouts(ctx, principal)).map((l) => [l.id, l.name]));
    const filters = listFilters(request.query);
    const past = await positivePay.listExports(ctx, principal, {
      limit: filters.perPage,
      offset: (filters.page - 1) * filters.perPage,
      term: null,
    });
    const error = (name: FieldName): Html | '' =>
      errors[name] === undefined ? '' : html`<p class="problem" id="${name}-error">${errors[name]}</p>`;
    const invalid = (name: FieldName): Html | '' =>
      errors[name] === undefined ? '' : html` aria-invalid="true" aria-describedby="${name}-error"`;
    const form =
      banks.items.length === 0
        ? html`<p>Add a bank account first: <a href="${withEnv('/panel/bank-accounts', env)}">Bank accounts</a>.</p>`
        : html`<form method="post" action="/panel/positive-pay" class="card"><h2>Export a file</h2>${csrfField(request)}
<input type="hidden" name="env" value="${env}">
<label for="bankAccountId">Bank account</label>
<select id="bankAccountId" name="bankAccountId" required${invalid('bankAccountId')}>${banks.items.map(
            (b) =>
              html`<option value="${b.id}"${b.id === values.bankAccountId ? html` selected` : ''}>${bankAccountLabel(b)}</option>`,
          )}</select>${error('bankAccountId')}
<label for="from">From <span class="hint">(issue date or void date, included)</span></label>
<input id="from" name="from" type="date" required value="${values.from}"${invalid('from')}>${error('from')}
<label for="to">To <span class="hint">(included; at most ${MAX_RANGE_DAYS} days)</span></label>
<input id="to" name="to" type="date" required value="${values.to}"${invalid('to')}>${error('to')}
<label for="format">Layout</label>
<select id="format" name="format"${invalid('format')}>${Object.entries(LABELS).map(
            ([value, label]) =>
              html`<option value="${value}"${value === values.format ? html` selected` : ''}>${label}</option>`,
          )}</select>${error('format')}
<p class="hint">Your bank's own layout: <a href="${withEnv('/panel/positive-pay/layouts', env)}">Positive pay layouts</a>, then choose it on the bank account's page.</p>
<p><button type="submit">Download the file</button></p></form>`;
    const list =
      past.total === 0
        ? html`<p>No exports yet.</p>`
        : html`<div class="table"><table><thead><tr><th scope="col">Range</th><th scope="col">Checks</th><th scope="col">Issued</th><th scope="col">Voided</th><th scope="col">Layout</th><th scope="col">Bank account</th><th scope="col">When</th><th scope="col">Who</th></tr></thead>
<tbody>${past.items.map(
            // What a reader on a phone wants first (range, count, totals) comes first.
            (e) => html`<tr><td>${e.from} – ${e.to}</td><td>${e.issuedCount + e.voidCount}</td>
<td>${money(e.issuedTotalCents)} <span class="hint">(${e.issuedCount})</span></td><td>${money(e.voidTotalCents)} <span class="hint">(${e.voidCount})</span></td>
<td>${LABELS[e.format] ?? layoutName.get(e.format) ?? e.format}</td><td>${bankName.get(e.bankAccountId) ?? e.bankAccountId}</td><td>${when(e.createdAt, principal.timeZone)}</td>
<td>${e.createdVia === 'api' ? `API key ${e.createdBy}` : `${e.createdBy} (${e.createdVia})`}</td></tr>`,
          )}</tbody></table></div>${pager('/panel/positive-pay', env === 'live' ? { env } : {}, filters.page, filters.perPage, past.total)}`;
    const body = html`<h1>Positive pay <span class="hint">(${env})</span></h1>
<p class="hint">The checks your bank should pay: those printed, emailed or mailed with an issue date in the range, and the voids of such checks made in the range. Send the file to your bank; every export is recorded below.</p>
${form}
<h2>Past exports</h2>${list}`;
    return page({ title: 'Positive pay', request, current: 'positive-pay', env, problem }, body);
  };

  app.get('', needs('read'), async (request, reply) => {
    const env = envOf(request);
    // Today in the account's time zone: exporting each day's checks is the common habit.
    const day = today(accountOf(request).timeZone, ctx.now());
    return sendPage(reply, await formPage(request, env, { bankAccountId: '', from: day, to: day, format: 'csv' }));
  });

  app.post('', needs('positive-pay.send'), async (request, reply) => {
    const env = envOf(request);
    const values: FormValues = {
      bankAccountId: field(request.body, 'bankAccountId'),
      from: field(request.body, 'from').trim(),
      to: field(request.body, 'to').trim(),
      format: field(request.body, 'format'),
    };
    try {
      if (!isPositivePayFormat(values.format))
        throw new AppError(
          'validation',
          "The format field must be CSV, fixed width or each bank account's chosen layout.",
        );
      const principal = principalFor(request, env);
      const { file } = await positivePay.createExport(
        ctx,
        principal,
        principal.timeZone,
        { via: 'panel', id: accountOf(request).email },
        { bankAccountId: values.bankAccountId, from: values.from, to: values.to, format: values.format },
      );
      return reply
        .code(200)
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .send(file.content);
    } catch (error) {
      if (error instanceof AppError && (error.code === 'validation' || error.code === 'not_found')) {
        const name = error.code === 'not_found' ? 'bankAccountId' : fieldOf(error.message);
        const message = error.code === 'not_found' ? 'Choose one of your bank accounts.' : plainWords(error.message);
        const body =
          name === null
            ? await formPage(request, env, values, {}, message)
            : await formPage(request, env, values, { [name]: message });
        return sendPage(reply, body, 422);
      }
      throw error;
    }
  });
}
