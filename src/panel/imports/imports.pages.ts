// /panel/imports: CSV imports of payees and checks (services/imports/). Upload a file
// (multipart), see its preview — a select per column, guessed from the headers, and every row's
// errors — then Import. The import runs in the background; its page refreshes itself (a meta
// refresh, no script) until it ends, then lists what was created. What a page shows of a file is
// bounded whatever the file holds: at most PREVIEW_COLUMNS columns, SAMPLE_ROWS rows, SHOWN_ERRORS
// rows' errors and SHOWN_CELL_CHARS characters of any text from it, each with how many more there are.
import { needs } from '../shell/access.ts';
import { cut, envField, fileNotRead } from './file-not-read.ts';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fieldsOf, IMPORT_KINDS, type ImportKind, isDateOrder } from '../../domain/import-columns.ts';
import { type BankAccount, bankAccountLabel } from '../../domain/bank-account.ts';
import type { ImportRecord } from '../../domain/import-record.ts';
import type { Environment } from '../../domain/owner.ts';
import { AppError } from '../../errors.ts';
import * as bankAccountService from '../../services/bank-account.service.ts';
import { draftCsv, saveDraft, startDraft } from '../../services/imports/drafts.service.ts';
import type { ImportOptions } from '../../services/imports/model.ts';
import { ImportRefused, type Preview, previewImport } from '../../services/imports/preview.service.ts';
import {
  fileTooLargeMessage,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_ROWS,
} from '../../formats/imports/read-import-file.ts';
import { createdRecords, errorsOf, getImport, listImports, resultOf } from '../../services/imports/records.service.ts';
import { importRunner } from '../../services/imports/runner.service.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { field } from '../shell/form.ts';
import { html, type Html } from '../shell/html.ts';
import { csrfField, money, page, sendPage, when, withEnv } from '../shell/layout.ts';
import { accountOf, envOf, principalFor } from '../shell/session.ts';
import { importFieldLabel, inFileWords, pathInMessage, plainWords, wordsFor } from '../shell/wording.ts';

/** Rows of a finished import's created list shown on its page (all are in the API's GET). */
const LISTED = 200;
/** Rows' errors shown on a preview or a failed import's page (the count says how many in all). */
const SHOWN_ERRORS = 200;
/** Columns of the file shown on a preview, each with its select; the others keep their guessed field. */
const PREVIEW_COLUMNS = 40;
/** New payees named on a preview. */
const SHOWN_NEW_PAYEES = 50;

interface Upload {
  name: string;
  data: Buffer;
}

function kindOf(value: string): ImportKind {
  if (!IMPORT_KINDS.includes(value as ImportKind))
    throw new AppError('validation', 'Choose what the file holds: checks or payees.');
  return value as ImportKind;
}

/**
 * The options a preview form carries: its column selects (`col.N`), bank account, payees, date
 * order. Read from the form alone (the file is not read for its header first).
 */
function optionsOf(body: unknown, kind: ImportKind): Omit<ImportOptions, 'csv' | 'kind'> {
  const mapping: Record<string, string> = {};
  for (const [key, chosen] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    const column = /^col\.(\d{1,4})$/.exec(key)?.[1];
    if (column !== undefined && Number(column) < MAX_IMPORT_COLUMNS && typeof chosen === 'string')
      mapping[column] = chosen;
  }
  const bankAccountId = field(body, 'bankAccountId');
  // A checks form always sends its date order; a body without it (or with another word) is refused,
  // not read as month/day/year (which would swap a day-first file's days and months).
  const dateOrder = field(body, 'dateOrder');
  if (kind === 'checks' && !isDateOrder(dateOrder))
    throw new AppError('validation', 'Choose how the file writes dates: month/day/year or day/month/year.');
  return {
    mapping,
    createPayees: field(body, 'createPayees') === 'yes',
    dateOrder: dateOrder === 'dmy' ? 'dmy' : 'mdy',
    ...(field(body, 'moneyOut') === 'negative' ? { moneyOut: 'negative' as const } : {}),
    ...(bankAccountId === '' ? {} : { bankAccountId }),
  };
}

/** Which columns a message's field comes from: a payee's id may come from its name's column. */
const SOURCES: Readonly<Record<string, readonly string[]>> = {
  payee: ['payee', 'payeeId'],
  payeeId: ['payeeId', 'payee'],
  category: ['category'],
  categoryId: ['category'],
};

/**
 * A row's messages without "is required" for a field an earlier message already names: a cell
 * refused for what it holds is not also empty.
 */
function rowWords(messages: readonly string[]): string[] {
  return messages.filter((message, i) => {
    const path = pathInMessage(message);
    if (path === null || !message.endsWith(' is required.')) return true;
    return !messages.slice(0, i).some((earlier) => pathInMessage(earlier) === path);
  });
}

/** A row's message in the file's words: its column's header and the cell as the file has it. */
function rowInFileWords(preview: Preview, row: number, message: string): string {
  const path = pathInMessage(message);
  if (path === null) return plainWords(message);
  const at = preview.mapping.findIndex((f) => f !== null && (SOURCES[path] ?? [path]).includes(f));
  const field = preview.mapping[at] ?? null;
  const column = at < 0 ? null : (preview.header[at] ?? null);
  const value = field === null ? null : (preview.cells[row - 1]?.[field] ?? null);
  const missing =
    path === 'bankAccountId' ? 'The bank account of every check' : `No column holds the ${wordsFor(path)}`;
  return inFileWords(message, path, column === null ? null : cut(column), value, missing);
}

function stateText(record: ImportRecord): string {
  switch (record.state) {
    case 'draft':
      return 'waiting for you to confirm the preview';
    case 'queued':
      return 'queued';
    case 'running':
      return `importing: ${record.rowsDone} of ${record.rowsTotal} rows`;
    case 'succeeded':
      return `done: ${record.rowsTotal} rows imported`;
    case 'failed':
      return 'failed: nothing was imported';
  }
}

export async function importsPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
    async onFile(part: MultipartFile) {
      try {
        (part as MultipartFile & { value: Upload }).value = { name: part.filename, data: await part.toBuffer() };
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError('payload_too_large', fileTooLargeMessage(MAX_IMPORT_BYTES));
        throw error;
      }
    },
  });

  const bankAccountsOf = async (request: FastifyRequest, env: Environment): Promise<readonly BankAccount[]> =>
    (await bankAccountService.listBankAccounts(ctx, principalFor(request, env), { limit: 100, offset: 0, term: null }))
      .items;

  const bankOptions = (banks: readonly BankAccount[], selected: string, fileColumn: string | null): Html =>
    html`${banks.length === 1 && fileColumn === null ? '' : html`<option value="">${fileColumn === null ? '— choose a bank account —' : `— the file's column “${cut(fileColumn)}” —`}</option>`}${banks.map(
      (b) => html`<option value="${b.id}"${b.id === selected ? html` selected` : ''}>${bankAccountLabel(b)}</option>`,
    )}`;

  app.get('', needs('read'), async (request, reply) => {
    const env = envOf(request);
    const timeZone = accountOf(request).timeZone;
    const recent = await listImports(ctx, principalFor(request, env));
    const list =
      recent.length === 0
        ? html`<p>No imports yet.</p>`
        : html`<div class="table"><table><thead><tr><th scope="col">File</th><th scope="col">Kind</th><th scope="col">State</th><th scope="col">Rows</th><th scope="col">Started</th></tr></thead>
<tbody>${recent.map(
            (r) =>
              html`<tr><td><a href="${withEnv(`/panel/imports/${r.id}`, env)}">${r.fileName === '' ? r.id : r.fileName}</a></td><td>${r.kind}</td><td>${stateText(r)}</td><td class="num">${r.rowsTotal}</td><td>${when(r.createdAt, timeZone)}</td></tr>`,
          )}</tbody></table></div>`;
    const body = html`<h1>Import from a spreadsheet <span class="hint">(${env})</span></h1>
<p class="hint">A CSV file of payees or of checks, as accounting software exports it (QuickBooks, Xero, Wave, Sage…). You see every row's errors before anything is written; an import is all or nothing. At most ${MAX_IMPORT_ROWS} rows, ${MAX_IMPORT_COLUMNS} columns and ${MAX_IMPORT_BYTES / 1024 / 1024} MB.</p>
<form method="post" action="/panel/imports/upload" enctype="multipart/form-data" class="card">${csrfField(request)}${envField(env)}
<div class="row"><div><label for="kind">The file holds</label><select id="kind" name="kind"><option value="checks">Checks</option><option value="payees">Payees</option></select></div>
<div><label for="file">CSV file</label><input id="file" name="file" type="file" accept=".csv,text/csv" required></div>
<div><button type="submit">Preview</button></div></div></form>
<h2>Recent imports</h2>${list}`;
    return sendPage(reply, page({ title: 'Imports', request, current: 'imports', env }, body));
  });

  app.post('/upload', needs('checks.import'), async (request, reply) => {
    const env = envOf(request);
    const body = request.body as Record<string, unknown> | undefined;
    const file = body?.file as Upload | undefined;
    if (file === undefined || !Buffer.isBuffer(file.data) || file.data.length === 0)
      throw new AppError('validation', 'Choose a CSV file to upload.');
    const kind = kindOf(typeof body?.kind === 'string' ? body.kind : '');
    const csv = file.data.toString('utf8');
    let draft: ImportRecord;
    try {
      draft = await saveDraft(ctx, principalFor(request, env), { kind, csv, fileName: file.name });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'validation') throw error;
      const refusedBody = fileNotRead(request, env, kind, file.name, csv, error.message);
      return sendPage(reply, page({ title: 'File not read', request, current: 'imports', env }, refusedBody), 422);
    }
    return reply.redirect(withEnv(`/panel/imports/${draft.id}`, env), 303);
  });

  const previewPage = async (request: FastifyRequest, record: ImportRecord, chosen: unknown, status = 200) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const csv = draftCsv(record);
    const options = chosen === undefined ? {} : optionsOf(chosen, record.kind);
    const banks = record.kind === 'checks' ? await bankAccountsOf(request, env) : [];
    // One bank account: every check is drawn on it, from the first preview on.
    const only = banks.length === 1 ? banks[0] : undefined;
    if (options.bankAccountId === undefined && only !== undefined) options.bankAccountId = only.id;
    let problem: string | undefined;
    let preview: Preview;
    try {
      preview = await previewImport(ctx, principal, { ...options, kind: record.kind, csv });
    } catch (error) {
      // A mapping that names a field twice: say so, and show the guess again.
      if (!(error instanceof AppError) || error.code !== 'validation') throw error;
      problem = plainWords(error.message);
      preview = await previewImport(ctx, principal, {
        kind: record.kind,
        csv,
        ...(only === undefined ? {} : { bankAccountId: only.id }),
      });
    }
    const bankColumnAt = preview.mapping.indexOf('bankAccountId');
    const bankColumn = bankColumnAt < 0 ? null : (preview.header[bankColumnAt] ?? null);
    // Several bank accounts and no column naming one: ask which, before any row's errors.
    const askBank =
      record.kind === 'checks' && banks.length > 1 && bankColumn === null && options.bankAccountId === undefined;
    const fields = fieldsOf(record.kind);
    const selects = preview.header.slice(0, PREVIEW_COLUMNS).map(
      (name, i) => html`<div><label for="col-${i}">Column “${cut(name)}”</label><select id="col-${i}" name="col.${i}">
<option value="">— not imported —</option>${fields.map(
        (f) =>
          html`<option value="${f}"${preview.mapping[i] === f ? html` selected` : ''}>${importFieldLabel(f)}</option>`,
      )}</select></div>`,
    );
    const mapped = preview.mapping.flatMap((f, i) =>
      f === null ? [] : [{ field: f, header: preview.header[i] ?? '' }],
    );
    const sample = html`<div class="table"><table><thead><tr><th scope="col">Row</th>${mapped.map((m) => html`<th scope="col">${cut(m.header)}</th>`)}</tr></thead>
<tbody>${preview.sample.map(
      (row, i) => html`<tr><td>${i + 1}</td>${mapped.map((m) => html`<td>${cut(row[m.field] ?? '')}</td>`)}</tr>`,
    )}</tbody></table></div>`;
    const words = (row: number, message: string): string => rowInFileWords(preview, row, message);
    const errors = askBank
      ? html`<div class="notice" role="status">Choose the bank account of these checks above and press Update preview: the rows are checked then.</div>`
      : preview.errors.length === 0
        ? html`<div class="notice" role="status">No errors: all ${preview.rowsTotal} rows can be imported.</div>`
        : html`<div class="problem" role="alert">${preview.errors.length} of ${preview.rowsTotal} rows have errors. Fix the file (or the columns) and preview again: nothing is imported while any row has an error.</div>
<div class="table"><table><thead><tr><th scope="col">Row</th><th scope="col">Line</th><th scope="col">Errors</th></tr></thead>
<tbody>${preview.errors.slice(0, SHOWN_ERRORS).map(
            (e) =>
              html`<tr><td>${e.row}</td><td>${e.line}</td><td>${rowWords(e.messages)
                .map((m) => words(e.row, m))
                .join(' ')}</td></tr>`,
          )}</tbody></table></div>
${preview.errors.length > SHOWN_ERRORS ? html`<p class="hint" id="more-errors">The first ${SHOWN_ERRORS} rows with errors are shown; ${preview.errors.length - SHOWN_ERRORS} more rows have errors.</p>` : ''}`;
    const chosenBody = chosen as Record<string, unknown> | undefined;
    const checksOptions =
      record.kind === 'checks'
        ? html`<div class="row"><div><label for="bankAccountId">Bank account of every check${bankColumn === null ? '' : html` <span class="hint">whose row names none</span>`}</label><select id="bankAccountId" name="bankAccountId"${askBank ? html` autofocus` : ''}>${bankOptions(banks, options.bankAccountId ?? '', bankColumn)}</select>${banks.length === 0 ? html`<p class="hint">No bank account yet: add one under Bank accounts first.</p>` : ''}</div>
<div><label for="dateOrder">Dates like 03/04/2026 are</label><select id="dateOrder" name="dateOrder"><option value="mdy">month/day/year</option><option value="dmy"${options.dateOrder === 'dmy' ? html` selected` : ''}>day/month/year</option></select></div>
${
  preview.layout === null
    ? html`<div><label for="moneyOut"><input id="moneyOut" name="moneyOut" type="checkbox" value="negative"${options.moneyOut === 'negative' ? html` checked` : ''}> Money paid out is negative in this file: −2,450.00 becomes a $2,450.00 check, and positive rows (deposits, bills) are left out and listed</label></div>`
    : ''
}<div><label for="createPayees"><input id="createPayees" name="createPayees" type="checkbox" value="yes"${chosenBody?.createPayees === 'yes' ? html` checked` : ''}> Create payees the file names that are not yet payees</label></div></div>
${preview.newPayees.length === 0 ? '' : html`<p class="hint">New payees to create: ${preview.newPayees.slice(0, SHOWN_NEW_PAYEES).map(cut).join(', ')}${preview.newPayees.length > SHOWN_NEW_PAYEES ? ` and ${preview.newPayees.length - SHOWN_NEW_PAYEES} more` : ''}.</p>`}`
        : '';
    const action = `/panel/imports/${record.id}`;
    const body = html`<h1>Preview: ${record.fileName === '' ? 'your file' : record.fileName} <span class="hint">(${record.kind}, ${env})</span></h1>
<form method="post" action="${action}/start" class="card">${csrfField(request)}${envField(env)}
${
  preview.layout === null
    ? ''
    : html`<div class="notice" role="status" id="layout">Looks like a ${preview.layout.label}: its columns, the sign of money paid out${preview.moneyOut === 'negative' ? ' (negative)' : ''} and its grouping are known, so there is nothing to map or confirm.</div>`
}${preview.headerLine > 1 ? html`<p class="hint">The header is line ${preview.headerLine}: the lines above it are titles.</p>` : ''}
<h2>Columns</h2><p class="hint">Each column's field, guessed from its header; change any and press Update preview.</p>
<div class="row">${selects}</div>${
      preview.header.length > PREVIEW_COLUMNS
        ? html`<p class="hint" id="more-columns">The first ${PREVIEW_COLUMNS} of ${preview.header.length} columns are shown; the other ${preview.header.length - PREVIEW_COLUMNS} keep the field guessed from their headers.</p>`
        : ''
    }${checksOptions}
<p><button type="submit" formaction="${action}/preview" class="secondary">Update preview</button>
<button type="submit"${preview.errors.length > 0 || askBank ? html` disabled` : ''}>Import ${preview.rowsTotal} rows</button></p></form>
<h2>Errors</h2>${errors}${
      preview.leftOut.length === 0
        ? ''
        : html`<h2>Lines left out</h2><p class="hint">These lines of the file are not rows to import; each says why.</p>
<div class="table"><table id="left-out"><thead><tr><th scope="col">Line</th><th scope="col">Why</th><th scope="col">What it holds</th></tr></thead>
<tbody>${preview.leftOut.slice(0, SHOWN_ERRORS).map((l) => html`<tr><td>${l.line}</td><td>${l.why}</td><td>${cut(l.text)}</td></tr>`)}</tbody></table></div>${
            preview.leftOut.length > SHOWN_ERRORS
              ? html`<p class="hint">The first ${SHOWN_ERRORS} are shown; ${preview.leftOut.length - SHOWN_ERRORS} more lines are left out.</p>`
              : ''
          }`
    }
<h2>First rows</h2>${sample}`;
    return {
      body: page(
        { title: 'Import preview', request, current: 'imports', env, ...(problem === undefined ? {} : { problem }) },
        body,
      ),
      status,
    };
  };

  const resultPage = async (request: FastifyRequest, record: ImportRecord): Promise<string> => {
    const env = envOf(request);
    const running = record.state === 'queued' || record.state === 'running';
    const result = resultOf(record);
    const progress = html`<p><progress max="${Math.max(1, record.rowsTotal)}" value="${record.rowsDone}">${record.rowsDone} of ${record.rowsTotal}</progress> ${stateText(record)}</p>`;
    let detail: Html | '' = '';
    if (record.state === 'failed') {
      detail = html`<div class="problem" role="alert">The import failed; nothing was written.</div>
<ul>${errorsOf(record)
        .slice(0, SHOWN_ERRORS)
        .map((e) => html`<li>Row ${e.row} (line ${e.line}): ${e.messages.map(plainWords).join(' ')}</li>`)}</ul>`;
    } else if (record.state === 'succeeded') {
      const created = await createdRecords(ctx, principalFor(request, env), record, LISTED);
      const made = created.ids.map((id) => {
        if (record.kind === 'checks') {
          const c = created.checks.get(id);
          const label =
            c === undefined ? id : `No. ${c.serialNumber} · ${c.payeeName ?? '—'} · ${money(c.amountCents)}`;
          return html`<li><a href="${withEnv(`/panel/checks/${id}`, env)}">${label}</a></li>`;
        }
        const name = created.payees.get(id)?.name ?? id;
        return html`<li><a href="${withEnv(`/panel/payees?term=${encodeURIComponent(name)}`, env)}">${name}</a> <code>${id}</code></li>`;
      });
      const count = record.kind === 'checks' ? result.checkIds.length : result.payeeIds.length;
      detail = html`<div class="notice" role="status">Created ${count} ${record.kind}${result.createdPayeeIds.length > 0 ? ` and ${result.createdPayeeIds.length} payees` : ''}.</div>
<h2>Created</h2><ol>${made}</ol>${count > LISTED ? html`<p class="hint">The first ${LISTED} are listed; GET /api/v3/imports/${record.id} lists all.</p>` : ''}
<p><a href="${withEnv(record.kind === 'checks' ? '/panel/checks' : '/panel/payees', env)}">See all ${record.kind}</a></p>`;
    }
    const body = html`<h1>Import ${record.fileName === '' ? record.id : record.fileName} <span class="hint">(${record.kind}, ${env})</span></h1>
${progress}${running ? html`<p class="hint">This page refreshes itself every 2 seconds until the import ends.</p>` : ''}${detail}
<p><a href="${withEnv('/panel/imports', env)}">All imports</a></p>`;
    const text = page({ title: 'Import', request, current: 'imports', env }, body);
    // A refresh tag in the head: no script needed (the page's CSP allows none inline anyway).
    return running
      ? text.replace('<meta name="robots"', '<meta http-equiv="refresh" content="2"><meta name="robots"')
      : text;
  };

  app.get('/:id', needs('read'), async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    const record = await getImport(ctx, principalFor(request, env), id);
    if (record.state === 'draft') {
      const shown = await previewPage(request, record, undefined);
      return sendPage(reply, shown.body, shown.status);
    }
    return sendPage(reply, await resultPage(request, record));
  });

  // Update preview: changes nothing, but carries the form's choices (a POST so the CSRF field stays out of URLs).
  app.post('/:id/preview', needs('checks.import'), async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    const record = await getImport(ctx, principalFor(request, env), id);
    if (record.state !== 'draft') return reply.redirect(withEnv(`/panel/imports/${id}`, env), 303);
    const shown = await previewPage(request, record, request.body);
    return sendPage(reply, shown.body, shown.status);
  });

  app.post('/:id/start', needs('checks.import'), async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const { id } = request.params as { id: string };
    const record = await getImport(ctx, principal, id);
    if (record.state !== 'draft') return reply.redirect(withEnv(`/panel/imports/${id}`, env), 303);
    const options = optionsOf(request.body, record.kind);
    if (record.kind === 'checks' && options.bankAccountId === undefined) {
      // One bank account: every check is drawn on it, as the preview showed.
      const banks = await bankAccountsOf(request, env);
      if (banks.length === 1 && banks[0] !== undefined) options.bankAccountId = banks[0].id;
    }
    try {
      await startDraft(ctx, principal, id, options);
    } catch (error) {
      if (!(error instanceof ImportRefused)) throw error;
      const shown = await previewPage(request, record, request.body, 422);
      return sendPage(reply, shown.body, shown.status);
    }
    importRunner(ctx)?.wake();
    return reply.redirect(withEnv(`/panel/imports/${id}`, env), 303);
  });
}
