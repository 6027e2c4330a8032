// One bank account's check register (docs/reconciliation.md): its checks with running outstanding
// totals, marking checks cleared by hand (tick, date, POST) or taking a clearing back, and the
// bank's cleared-items file uploaded with a page of what matched and what did not. The list of
// every bank account's register is the Register menu's page (check-register/check-register.pages.ts). Same
// services as the API; no script needed.
import { needs } from '../shell/access.ts';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BANK_FILE_LAYOUTS, MAX_CLEARED_ITEMS_BYTES } from '../../domain/cleared-items.ts';

/** Rows of each table of a reconciliation's result page (the counts above them say how many in all). */
const SHOWN_RESULT_ROWS = 500;
import { statusDescription, statusName } from '../../domain/check-status.ts';
import { isOutstanding } from '../../domain/clearing.ts';
import { today } from '../../domain/dates.ts';
import type { Environment } from '../../domain/owner.ts';
import { AppError } from '../../errors.ts';
import * as clearing from '../../services/checks/clearing.service.ts';
import * as checkRegisterService from '../../services/check-register.service.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { field, fields } from '../shell/form.ts';
import { html, type Html } from '../shell/html.ts';
import { listFilters } from '../shell/list-query.ts';
import { csrfField, money, page, pager, sendPage, withEnv } from '../shell/layout.ts';
import { envOf, principalFor } from '../shell/session.ts';
import { plainWords } from '../shell/wording.ts';
import { dateProblem } from '../../domain/dates.ts';

/** "1 check", "2 checks". */
export function checksCount(count: number): string {
  return `${count} ${count === 1 ? 'check' : 'checks'}`;
}

/**
 * A row's check number as the office knows it: the check's own number when the row matched one,
 * else the bank's digits without the zeros its fixed-width field adds ("0020299" is 20299).
 */
function checkNumberShown(row: clearing.ReconciledRow): string {
  return row.check?.serialNumber ?? row.checkNumber.replace(/^0+(?=\d)/, '');
}

/** Register rows per page unless the visitor asks otherwise: a month of a small business's checks. */
const REGISTER_PER_PAGE = 50;

interface Problem {
  field: 'clear' | 'file';
  message: string;
}

const envField = (env: Environment): Html => html`<input type="hidden" name="env" value="${env}">`;

/** A refusal of the clearing form: a cleared date that is no day is explained with the date as typed. */
function clearedDateWords(message: string, typed: string): string {
  const problem = /\bclearedDate\b/.test(message) ? dateProblem(typed, 'ymd') : null;
  return problem === null ? plainWords(message) : `The cleared date ${problem}.`;
}

function status(code: number): Html {
  const name = statusName(code);
  const tone = name === 'void' || name === 'refunded' ? 'bad' : name === 'new' ? 'wait' : 'ok';
  return html`<span class="status ${tone}" title="${statusDescription(code)}">${name}</span>`;
}

/** The register's paging, as the checks list reads it, with the register's own default size. */
function registerPaging(request: FastifyRequest): { page: number; perPage: number } {
  const query = request.query as Record<string, unknown> | undefined;
  const f = listFilters(typeof query?.perPage === 'string' ? query : { ...query, perPage: String(REGISTER_PER_PAGE) });
  return { page: f.page, perPage: f.perPage };
}

async function checkRegisterPage(
  deps: PanelDeps,
  request: FastifyRequest,
  bankAccountId: string,
  problem?: Problem,
): Promise<string> {
  const env = envOf(request);
  const principal = principalFor(request, env);
  const { page: number, perPage } = registerPaging(request);
  const view = await checkRegisterService.checkRegisterOf(deps.ctx, principal, bankAccountId, {
    limit: perPage,
    offset: (number - 1) * perPage,
  });
  const path = `/panel/bank-accounts/${view.bankAccount.id}/register`;
  const day = today(principal.timeZone, deps.ctx.now());
  const lastPage = Math.max(1, Math.ceil(view.total / perPage));
  const rows = view.rows.map(({ check: c, runningCents }) => {
    const clearable = isOutstanding(c);
    const pick = clearable
      ? html`<input type="checkbox" name="checkId" value="${c.id}" aria-label="Mark check ${c.serialNumber} cleared">`
      : '';
    const cleared =
      c.clearedDate === null
        ? '—'
        : html`${c.clearedDate} <button class="small secondary" type="submit" formaction="${path}/unclear" name="uncheckId" value="${c.id}" aria-label="Un-clear check ${c.serialNumber}">Un-clear</button>`;
    return html`<tr><td>${pick}</td><td><a href="${withEnv(`/panel/checks/${c.id}`, env)}">${c.serialNumber}</a></td><td>${c.issueDate}</td><td>${c.payeeName ?? '—'}</td>
<td class="num">${money(c.amountCents)}</td><td>${status(c.status)}</td><td>${cleared}</td><td class="num">${money(runningCents)}</td></tr>`;
  });
  const table =
    view.rows.length === 0
      ? html`<p>No checks on this page.</p>`
      : html`<div class="table"><table><caption class="hint">In register order: date written, then the order the checks were made. Outstanding: issued (printed, mailed, emailed, e-printed), not void, not cleared.</caption>
<thead><tr><th scope="col">Clear</th><th scope="col">Number</th><th scope="col">Date</th><th scope="col">Payee</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Cleared</th><th scope="col" class="num">Outstanding to here</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
  const clearProblem =
    problem?.field === 'clear' ? html`<p class="problem" id="clear-problem" role="alert">${problem.message}</p>` : '';
  const fileProblem =
    problem?.field === 'file' ? html`<p class="problem" id="file-problem" role="alert">${problem.message}</p>` : '';
  const params: Record<string, string> = { perPage: String(perPage) };
  if (env === 'live') params.env = 'live';
  // The clearing button comes before the table's Un-clear buttons: Enter in the date field
  // presses the form's first submit button, and that must be "Mark ticked checks cleared".
  const body = html`<p><a href="${withEnv('/panel/register', env)}">← All bank accounts</a></p>
<h1>Register: ${view.bankAccount.name} <span class="hint">(${env})</span></h1>
<section class="card" aria-label="Outstanding checks"><dl class="facts">
<dt>Outstanding checks</dt><dd id="outstanding-count">${view.outstanding.count}</dd>
<dt>Outstanding total</dt><dd id="outstanding-total">${money(view.outstanding.totalCents)}</dd>
<dt>Checks in the register</dt><dd>${view.total}</dd></dl>
${number < lastPage ? html`<p><a href="${withEnv(`${path}?page=${lastPage}&perPage=${perPage}`, env)}">Latest checks →</a></p>` : ''}</section>
<form method="post" action="${path}/clear" aria-label="Mark checks cleared">${csrfField(request)}${envField(env)}
<input type="hidden" name="page" value="${number}"><input type="hidden" name="perPage" value="${perPage}">
<div class="row card"><div><label for="clearedDate">Cleared on <span class="hint">the day the bank paid the checks ticked below</span></label>
<input id="clearedDate" name="clearedDate" type="date" max="${day}" value="${day}"${problem?.field === 'clear' ? html` aria-invalid="true" aria-describedby="clear-problem"` : ''}></div>
<div><button type="submit">Mark ticked checks cleared</button></div></div>${clearProblem}
${table}</form>
${pager(path, params, number, perPage, view.total)}
<form method="post" action="/panel/bank-accounts/${view.bankAccount.id}/cleared-items" enctype="multipart/form-data" class="card" aria-label="Upload the bank's cleared items">
<h2>Reconcile with the bank's file</h2>${csrfField(request)}${envField(env)}
<p class="hint">The file from the bank's website as downloaded: the account activity or paid-items CSV (Bank of America, Wells Fargo, Chase, a credit union…), an OFX or QFX (Quicken) download, or a BAI2 file. Checks match on number and amount; only money out clears a check; anything else is listed and left alone. At most 1 MB.</p>
<label for="file">Bank's file (CSV, OFX, QFX or BAI2)</label><input id="file" name="file" type="file" accept=".csv,.txt,.ofx,.qfx,.bai,.bai2,text/csv,text/plain,application/x-ofx" required${problem?.field === 'file' ? html` aria-invalid="true" aria-describedby="file-problem"` : ''}>
<label for="fileDate">Cleared on <span class="hint">for rows without a date</span></label><input id="fileDate" name="clearedDate" type="date" max="${day}" value="${day}">
${fileProblem}<button type="submit">Upload and reconcile</button></form>`;
  return page(
    {
      title: `Register: ${view.bankAccount.name}`,
      request,
      current: 'register',
      env,
      ...(problem === undefined ? {} : { problem: 'Nothing was changed: see the message below.' }),
    },
    body,
  );
}

/** The register page a form came from (its page and size, when it said), with a notice. */
function backTo(bankAccountId: string, body: unknown, notice: string): string {
  const query = new URLSearchParams();
  for (const name of ['page', 'perPage'])
    if (/^[0-9]{1,10}$/.test(field(body, name))) query.set(name, field(body, name));
  query.set('notice', notice);
  return `/panel/bank-accounts/${bankAccountId}/register?${query.toString()}`;
}

/** What a multipart upload left in the body (read in preValidation, so the CSRF check can see it). */
interface Upload {
  _csrf: string;
  env: string;
  clearedDate: string;
  file: string | null;
  tooLarge: boolean;
}

export async function bankAccountCheckRegisterPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;
  // Uploads are parsed in this scope only; a file past the limit is cut and reported, not a 500.
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: MAX_CLEARED_ITEMS_BYTES, files: 1, fields: 5, parts: 6 },
  });

  app.get('/:id/register', needs('read'), async (request, reply) => {
    const { id } = request.params as { id: string };
    return sendPage(reply, await checkRegisterPage(deps, request, id));
  });

  app.post('/:id/register/clear', needs('checks.reconcile'), async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    const ids = fields(request.body, 'checkId');
    try {
      await clearing.clearChecks(ctx, principalFor(request, env), id, ids, field(request.body, 'clearedDate'));
    } catch (error) {
      if (error instanceof AppError && error.code === 'validation') {
        // The page the form came from, with the message next to the date and button.
        request.query = { page: field(request.body, 'page'), perPage: field(request.body, 'perPage') };
        return sendPage(
          reply,
          await checkRegisterPage(deps, request, id, {
            field: 'clear',
            message: clearedDateWords(error.message, field(request.body, 'clearedDate')),
          }),
          422,
        );
      }
      throw error;
    }
    return reply.redirect(withEnv(backTo(id, request.body, 'checks-cleared'), env), 303);
  });

  app.post('/:id/register/unclear', needs('checks.reconcile'), async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    const principal = principalFor(request, env);
    // The check must be on this bank account (and the visitor's): otherwise 404, as everywhere.
    const checkId = field(request.body, 'uncheckId');
    const check = await clearing.checkOn(ctx, principal, id, checkId);
    await clearing.unclearCheck(ctx, principal, check.id);
    return reply.redirect(withEnv(backTo(id, request.body, 'check-uncleared'), env), 303);
  });

  app.post(
    '/:id/cleared-items',
    {
      ...needs('checks.reconcile'),
      preValidation: async (request) => {
        const upload: Upload = { _csrf: '', env: '', clearedDate: '', file: null, tooLarge: false };
        if (!request.isMultipart()) throw new AppError('bad_request', 'Send the form as the page does.');
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              const data = await part.toBuffer();
              upload.tooLarge = part.file.truncated;
              upload.file = upload.tooLarge ? null : data.toString('utf8');
            } else if (part.fieldname === '_csrf' || part.fieldname === 'env' || part.fieldname === 'clearedDate') {
              upload[part.fieldname] = String(part.value);
            }
          }
        } catch {
          // A malformed body: the 400 page (its form fields cannot be trusted either).
          throw new AppError('bad_request', 'The upload could not be read. Go back and try again.');
        }
        request.body = upload;
      },
    },
    async (request, reply) => {
      const env = envOf(request);
      const { id } = request.params as { id: string };
      const principal = principalFor(request, env);
      const upload = request.body as Upload;
      let result: clearing.Reconciliation;
      try {
        if (upload.tooLarge) throw new AppError('validation', 'The file is larger than 1 MB: split it.');
        if (upload.file === null || upload.file.trim() === '')
          throw new AppError('validation', 'Choose the bank’s file first.');
        result = await clearing.reconcile(ctx, principal, id, upload.file, upload.clearedDate);
      } catch (error) {
        if (error instanceof AppError && error.code === 'validation') {
          return sendPage(
            reply,
            await checkRegisterPage(deps, request, id, { field: 'file', message: plainWords(error.message) }),
            422,
          );
        }
        throw error;
      }
      const view = await checkRegisterService.checkRegisterOf(ctx, principal, id, { limit: 0, offset: 0 });
      const back = withEnv(`/panel/bank-accounts/${id}/register`, env);
      const clearedCents = result.matched.reduce((sum, m) => sum + m.amountCents, 0);
      const link = (checkId: string | undefined, text: string): Html | string =>
        checkId === undefined ? text : html`<a href="${withEnv(`/panel/checks/${checkId}`, env)}">${text}</a>`;
      const more = (rows: number, what: string): Html | '' =>
        rows > SHOWN_RESULT_ROWS
          ? html`<p class="hint">The first ${SHOWN_RESULT_ROWS} rows are shown; ${rows - SHOWN_RESULT_ROWS} more rows were ${what}.</p>`
          : '';
      const matched =
        result.matched.length === 0
          ? html`<p>No row matched a check.</p>`
          : html`<div class="table"><table id="matched"><thead><tr><th scope="col">Line</th><th scope="col">Check number</th><th scope="col" class="num">Amount</th><th scope="col">Cleared on</th></tr></thead>
<tbody>${result.matched
              .slice(0, SHOWN_RESULT_ROWS)
              .map(
                (m) =>
                  html`<tr><td>${m.line}</td><td>${link(m.check?.id, checkNumberShown(m))}</td><td class="num">${money(m.amountCents)}</td><td>${m.clearedDate}</td></tr>`,
              )}</tbody></table></div>${more(result.matched.length, 'cleared')}`;
      const mismatched =
        result.mismatched.length === 0
          ? html`<p>Every row matched.</p>`
          : html`<div class="table"><table id="mismatched"><thead><tr><th scope="col">Line</th><th scope="col">Check number</th><th scope="col" class="num">Bank paid</th><th scope="col">Date</th><th scope="col">Why it did not clear</th></tr></thead>
<tbody>${result.mismatched
              .slice(0, SHOWN_RESULT_ROWS)
              .map(
                (m) =>
                  html`<tr data-reason="${m.reason}"><td>${m.line}</td><td>${link(m.check?.id, checkNumberShown(m))}</td><td class="num">${money(m.amountCents)}</td><td>${m.clearedDate}</td><td>${m.message}</td></tr>`,
              )}</tbody></table></div>${more(result.mismatched.length, 'not cleared')}`;
      // Deposits and credits that carry a number: shown so the office sees they were read, apart.
      const credits =
        result.credits.length === 0
          ? ''
          : html`<h2>Money in, not checks</h2><p class="hint">Deposits and credits never clear a check, even when they carry its number.</p><div class="table"><table id="credits"><thead><tr><th scope="col">Line</th><th scope="col">Number</th><th scope="col" class="num">Amount in</th><th scope="col">Date</th></tr></thead>
<tbody>${result.credits
              .slice(0, SHOWN_RESULT_ROWS)
              .map(
                (c) =>
                  html`<tr><td>${c.line}</td><td>${c.checkNumber}</td><td class="num">${money(c.amountCents)}</td><td>${c.date}</td></tr>`,
              )}</tbody></table></div>${more(result.credits.length, 'money in')}`;
      const body = html`<p><a href="${back}">← Register: ${view.bankAccount.name}</a></p>
<h1>Reconciled: ${view.bankAccount.name} <span class="hint">(${env})</span></h1>
<section class="card" aria-label="Result"><dl class="facts">
<dt>Checks cleared</dt><dd id="cleared-count">${result.matched.length} (${money(clearedCents)})</dd>
<dt>Rows that did not match</dt><dd id="mismatched-count">${result.mismatched.length}</dd>
<dt>Money in with a number (never a check)</dt><dd id="credits-count">${result.credits.length}</dd>
<dt>Rows without a check number</dt><dd>${result.skippedLines}</dd>
<dt>Read as</dt><dd id="layout">${BANK_FILE_LAYOUTS[result.layout]}</dd>
<dt>Columns read</dt><dd>${result.columns.checkNumber}, ${result.columns.amount}${result.columns.date === null ? ' (no date column: the date chosen)' : `, ${result.columns.date}`}</dd>
<dt>Outstanding now</dt><dd id="outstanding-total">${checksCount(view.outstanding.count)}, ${money(view.outstanding.totalCents)}</dd></dl></section>
<h2>Cleared</h2>${matched}<h2>Not cleared</h2><p class="hint">Nothing was changed for these rows.</p>${mismatched}${credits}`;
      return sendPage(reply, page({ title: 'Reconciled', request, current: 'register', env }, body));
    },
  );
}
