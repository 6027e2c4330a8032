// The "Write a check" form: what was typed (FormValues), how it becomes the API's own input
// (CheckInput / CheckEdit / a payee), how the API's validation messages find their field again,
// and the HTML. The rules are the API's: the request schemas (validated with the API's validator)
// and the services; this file only translates between form fields and API field paths.
import type { FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { type BankAccount, bankAccountLabel } from '../../../domain/bank-account.ts';
import type { Category } from '../../../domain/category.ts';
import type { Environment } from '../../../domain/owner.ts';
import type { Payee } from '../../../domain/payee.ts';
import { amountInWords } from '../../../domain/amount-words.ts';
import { dateProblem } from '../../../domain/dates.ts';
import { parseAmountToCents } from '../../../domain/money.ts';
import { type AppError, validationError } from '../../../errors.ts';
import { describeValidationError, validatorCompiler } from '../../../http/validation.ts';
import type { CheckEdit, CheckInput, VoucherInput } from '../../../schemas/checks.ts';
import type { PayeeInput as PayeeInputSchema } from '../../../schemas/payees.ts';
import { field, type FormBody, unsentOf } from '../../shell/form.ts';
import { html, type Html } from '../../shell/html.ts';
import { csrfField, withEnv } from '../../shell/layout.ts';
import { pathInMessage, plainWords } from '../../shell/wording.ts';

/** Voucher rows on the form; the API takes up to 100, an office check stub a handful. */
export const VOUCHER_ROWS = 5;
const MAX_VOUCHER_ROWS = 100;
/** Suggestions in the payee list (the JSON search and the page's own datalist). */
export const PAYEE_SUGGESTIONS = 20;

const NEW_PAYEE_FIELDS = ['name', 'company', 'email', 'address1', 'address2', 'city', 'state', 'zip'] as const;
type NewPayeeField = (typeof NEW_PAYEE_FIELDS)[number];

export interface VoucherRow {
  description: string;
  amount: string;
}

export interface FormValues {
  bankAccountId: string;
  /** What is in the payee box: a payee's name (or id). */
  payee: string;
  /** Set by the page's script when a suggestion is picked; names the payee when names repeat. */
  payeeId: string;
  newPayee: boolean;
  newPayeeFields: Record<NewPayeeField, string>;
  amount: string;
  issueDate: string;
  memo: string;
  invoiceNumber: string;
  categoryId: string;
  lines: VoucherRow[];
}

/** field name on the form -> message */
export type FieldErrors = Map<string, string>;

export function emptyValues(issueDate: string): FormValues {
  return {
    bankAccountId: '',
    payee: '',
    payeeId: '',
    newPayee: false,
    newPayeeFields: Object.fromEntries(NEW_PAYEE_FIELDS.map((f) => [f, ''])) as Record<NewPayeeField, string>,
    amount: '',
    issueDate,
    memo: '',
    invoiceNumber: '',
    categoryId: '',
    lines: Array.from({ length: VOUCHER_ROWS }, () => ({ description: '', amount: '' })),
  };
}

export function valuesFromForm(body: unknown): FormValues {
  const values = emptyValues(field(body, 'issueDate'));
  values.bankAccountId = field(body, 'bankAccountId');
  values.payee = field(body, 'payee').trim();
  values.payeeId = field(body, 'payeeId').trim();
  values.newPayee = field(body, 'newPayee') === '1';
  for (const f of NEW_PAYEE_FIELDS) values.newPayeeFields[f] = field(body, `newPayee.${f}`).trim();
  values.amount = field(body, 'amount').trim();
  values.memo = field(body, 'memo');
  values.invoiceNumber = field(body, 'invoiceNumber');
  values.categoryId = field(body, 'categoryId');
  // Five rows on a new form; an edited check shows as many as its voucher has (up to the API's 100).
  const rows = Object.keys((body ?? {}) as FormBody)
    .map((key) => /^voucher\.(\d{1,3})\./.exec(key)?.[1])
    .reduce((most, index) => (index === undefined ? most : Math.max(most, Number(index) + 1)), VOUCHER_ROWS);
  values.lines = Array.from({ length: Math.min(rows, MAX_VOUCHER_ROWS) }, (_, i) => ({
    description: field(body, `voucher.${i}.description`),
    amount: field(body, `voucher.${i}.amount`).trim(),
  }));
  return values;
}

// ---- from the form to the API's input ----

/** The check's own fields, which the edit form always draws (the new payee's only matter when ticked). */
const EDIT_FIELDS = ['payee', 'payeeId', 'amount', 'issueDate', 'invoiceNumber', 'memo', 'categoryId'] as const;

export const UNSENT_WORDS = 'This field was not sent with the form: reload the page and try again.';

/**
 * The first field an edit form draws that the body lacks (its own fields, and the voucher rows that
 * show the `storedLines` lines it has), else null. A browser sends them all, an empty box as '';
 * a body without one (a hand-made request, a form of an older version) is not read as ''.
 */
export function unsentEditField(body: unknown, storedLines: number): string | null {
  const names: string[] = [...EDIT_FIELDS];
  for (let i = 0; i < storedLines; i++) names.push(`voucher.${i}.description`, `voucher.${i}.amount`);
  return unsentOf(body, names)[0] ?? null;
}

const optional = (value: string): string | undefined => (value === '' ? undefined : value);

/** The voucher lines that were filled in, with the form row each came from. */
export function filledLines(values: FormValues): { row: number; line: VoucherRow }[] {
  return values.lines
    .map((line, row) => ({ row, line }))
    .filter(({ line }) => line.description.trim() !== '' || line.amount !== '');
}

export function voucherInput(values: FormValues, keep: Omit<VoucherInput, 'voucherItems'> = {}): VoucherInput {
  return {
    ...keep,
    voucherItems: filledLines(values).map(({ line }) => ({
      description: line.description,
      quantity: 1,
      ...(line.amount === '' ? {} : { unitCost: line.amount, total: line.amount }),
    })),
  };
}

export type PayeeInput = Static<typeof PayeeInputSchema>;

export function newPayeeInput(values: FormValues): PayeeInput {
  const input: PayeeInput = { name: values.newPayeeFields.name };
  for (const f of NEW_PAYEE_FIELDS)
    if (f !== 'name' && values.newPayeeFields[f] !== '') input[f] = values.newPayeeFields[f];
  return input;
}

/** The check as POST /checks takes it; `payeeId` is decided by the caller (found or just made). */
export function checkInput(values: FormValues, payeeId: string | null): CheckInput {
  const input: CheckInput = { bankAccountId: values.bankAccountId, payeeId };
  const amount = optional(values.amount);
  if (amount !== undefined) input.amount = amount;
  const issueDate = optional(values.issueDate);
  if (issueDate !== undefined) input.issueDate = issueDate;
  const memo = optional(values.memo);
  if (memo !== undefined) input.memo = memo;
  const invoice = optional(values.invoiceNumber);
  if (invoice !== undefined) input.invoiceNumber = invoice;
  if (values.categoryId !== '') input.categoryId = values.categoryId;
  if (filledLines(values).length > 0) input.voucher = voucherInput(values);
  return input;
}

/** The edit as PUT /checks/{id} takes it: every field of the form, '' clearing an optional one. */
export function checkEdit(values: FormValues, payeeId: string | null): CheckEdit {
  return {
    payeeId,
    categoryId: values.categoryId === '' ? null : values.categoryId,
    ...(values.amount === '' ? {} : { amount: values.amount }),
    ...(values.issueDate === '' ? {} : { issueDate: values.issueDate }),
    memo: values.memo,
    invoiceNumber: values.invoiceNumber,
  };
}

/** Runs the API's own request validator for `schema` (the API's first message, or nothing). */
export function schemaProblem<S extends TSchema>(schema: S, data: Static<S>): AppError | null {
  const validate = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/panel' });
  if (validate(data) === true) return null;
  const first = (validate as { errors?: Parameters<typeof describeValidationError>[0][] | null }).errors?.[0];
  return validationError(first === undefined ? 'The form is invalid.' : describeValidationError(first, 'body'));
}

// ---- from the API's messages back to the form ----

const LABELS: Readonly<Record<string, string>> = {
  bankAccountId: 'bank account',
  payee: 'payee',
  amount: 'amount',
  issueDate: 'date',
  memo: 'memo',
  invoiceNumber: 'invoice number',
  categoryId: 'category',
  'newPayee.name': "new payee's name",
  'newPayee.company': "new payee's company",
  'newPayee.email': "new payee's email",
  'newPayee.address1': "new payee's address",
  'newPayee.address2': "new payee's address line 2",
  'newPayee.city': "new payee's city",
  'newPayee.state': "new payee's state",
  'newPayee.zip': "new payee's ZIP code",
};

function labelOf(name: string): string {
  const line = /^voucher\.(\d+)\.(description|amount)$/.exec(name);
  if (line !== null) return `line ${Number(line[1]) + 1} ${line[2]}`;
  return LABELS[name] ?? name;
}

/**
 * The form field an API path belongs to: `checks.0.amount` -> `amount`, `checks.0.payeeId` ->
 * `payee`, `checks.0.voucher.voucherItems.1.total` -> the form row that line came from,
 * `payees.0.email` -> `newPayee.email`. Null when the form has no such field.
 */
export function formFieldOf(path: string, values: FormValues): string | null {
  const payee = /^payees\.\d+\.(\w+)$/.exec(path);
  if (payee !== null) {
    const name = `newPayee.${payee[1]}`;
    return name in LABELS ? name : null;
  }
  const own = path.replace(/^checks\.\d+\./, '');
  const item = /^voucher\.voucherItems\.(\d+)\.(\w+)$/.exec(own);
  if (item !== null) {
    const row = filledLines(values)[Number(item[1])]?.row;
    if (row === undefined) return null;
    return item[2] === 'description' ? `voucher.${row}.description` : `voucher.${row}.amount`;
  }
  if (own === 'payeeId' || own === 'noPayee') return 'payee';
  return own in LABELS ? own : null;
}

/**
 * An AppError from the API's rules as the form shows it: next to its field (worded with the
 * field's label instead of the API path), or, for a rule about no one field, above the form.
 */
export function placeError(error: AppError, values: FormValues): { fields: FieldErrors; problem: string } {
  const path = pathInMessage(error.message);
  const name = path === null ? null : formFieldOf(path, values);
  if (path === null || name === null) return { fields: new Map(), problem: plainWords(error.message) };
  // A date that is no day is explained with the date as it was typed (domain/dates.ts).
  const dateWords = name === 'issueDate' ? dateProblem(values.issueDate, 'ymd') : null;
  const message = dateWords === null ? plainWords(error.message.replace(path, labelOf(name))) : `${dateWords}.`;
  return { fields: new Map([[name, message]]), problem: 'Check the marked field: it was not saved.' };
}

/** A form-only message next to a field (the payee box, which the API does not have). */
export function fieldError(name: string, message: string): { fields: FieldErrors; problem: string } {
  return { fields: new Map([[name, message]]), problem: 'Check the marked field: it was not saved.' };
}

// ---- HTML ----

export interface FormChoices {
  bankAccounts: readonly BankAccount[];
  categories: readonly Category[];
  /** The no-script suggestions for the payee box. */
  payees: readonly Payee[];
}

export interface FormView {
  request: FastifyRequest;
  env: Environment;
  action: string;
  submitLabel: string;
  values: FormValues;
  choices: FormChoices;
  errors: FieldErrors;
  /** Editing keeps the bank account (the API cannot move a check to another account). */
  fixedBankAccount: string | null;
}

/** The words for what is in the amount box, from the same converter as the PDF ('' when not an amount). */
export function wordsFor(amount: string): string {
  if (amount === '') return '';
  const parsed = parseAmountToCents(amount);
  return 'cents' in parsed ? amountInWords(parsed.cents) : '';
}

function errorOf(view: FormView, name: string): Html | '' {
  const message = view.errors.get(name);
  return message === undefined ? '' : html`<p class="field-error" id="${idOf(name)}-error">${message}</p>`;
}

const idOf = (name: string): string => name.replace(/\./g, '-');

/** aria-invalid, aria-describedby and autofocus for a control that has a message. */
function invalid(view: FormView, name: string, hintId: string | null = null): Html {
  const described = [hintId, view.errors.has(name) ? `${idOf(name)}-error` : null].filter((x) => x !== null);
  const first = view.errors.keys().next().value === name;
  return html`${view.errors.has(name) ? html` aria-invalid="true"` : ''}${described.length > 0 ? html` aria-describedby="${described.join(' ')}"` : ''}${first ? html` autofocus` : ''}`;
}

function textInput(
  view: FormView,
  name: string,
  label: string,
  value: string,
  options: { type?: string; maxlength?: number; hint?: string; autocomplete?: string } = {},
): Html {
  const id = idOf(name);
  const hintId = options.hint === undefined ? null : `${id}-hint`;
  return html`<div><label for="${id}">${label}${options.hint === undefined ? '' : html` <span class="hint" id="${hintId}">${options.hint}</span>`}</label>
<input id="${id}" name="${name}" type="${options.type ?? 'text'}" value="${value}"${options.maxlength === undefined ? '' : html` maxlength="${options.maxlength}"`}${options.autocomplete === undefined ? '' : html` autocomplete="${options.autocomplete}"`}${invalid(view, name, hintId)}>${errorOf(view, name)}</div>`;
}

function bankAccountControl(view: FormView): Html {
  const { values, choices } = view;
  if (view.fixedBankAccount !== null)
    return html`<div><span class="label">Bank account</span><p class="fixed">${view.fixedBankAccount}</p></div>`;
  const autofocus = view.errors.size === 0 ? html` autofocus` : '';
  return html`<div><label for="bankAccountId">Bank account</label>
<select id="bankAccountId" name="bankAccountId"${autofocus}${invalid(view, 'bankAccountId')}>${choices.bankAccounts.length === 1 ? '' : html`<option value="">Choose a bank account</option>`}${choices.bankAccounts.map(
    (b) =>
      html`<option value="${b.id}"${values.bankAccountId === b.id ? html` selected` : ''}>${bankAccountLabel(b)}</option>`,
  )}</select>${errorOf(view, 'bankAccountId')}${choices.bankAccounts.length === 0 ? html`<p class="hint">No bank account yet: <a href="${withEnv('/panel/bank-accounts/new', view.env)}">add your bank account</a> first, then write the check.</p>` : ''}</div>`;
}

function payeeControl(view: FormView): Html {
  const { values, choices, env } = view;
  const fields = values.newPayeeFields;
  const open = values.newPayee || [...view.errors.keys()].some((k) => k.startsWith('newPayee.'));
  // Without script: a text box with the browser's own suggestion list (a datalist), matched by
  // name or id on the server. With script (assets.ts): a listbox filled from /panel/payees/search
  // as the operator types, walked with the arrow keys; picking one also fills payeeId.
  return html`<div class="payee-box" data-payee-search="${`/panel/payees/search${env === 'live' ? '?env=live' : ''}`}">
<label for="payee">Pay to <span class="hint" id="payee-hint">type a payee's name, then pick it with ↓ and Enter</span></label>
<input id="payee" name="payee" type="text" value="${values.payee}" maxlength="100" autocomplete="off" list="payee-suggestions" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="payee-options"${invalid(view, 'payee', 'payee-hint')}>
<input type="hidden" name="payeeId" id="payeeId" value="${values.payeeId}">
<ul id="payee-options" role="listbox" aria-label="Matching payees" class="options" hidden></ul>
<datalist id="payee-suggestions">${choices.payees.map((p) => html`<option value="${p.name}">${[p.company, p.email].filter((x) => x !== '').join(' · ')}</option>`)}</datalist>
${errorOf(view, 'payee')}</div>
<details class="new-payee"${open ? html` open` : ''}><summary>Or add a new payee</summary>
<div class="check"><input type="checkbox" id="newPayee" name="newPayee" value="1"${values.newPayee ? html` checked` : ''}><label for="newPayee">Pay a new payee with these details (saved with the check)</label></div>
<div class="row">${textInput(view, 'newPayee.name', 'Name', fields.name, { maxlength: 100 })}${textInput(view, 'newPayee.company', 'Company', fields.company, { maxlength: 100 })}${textInput(view, 'newPayee.email', 'Email', fields.email, { type: 'email', maxlength: 254 })}</div>
<div class="row">${textInput(view, 'newPayee.address1', 'Address', fields.address1, { maxlength: 100 })}${textInput(view, 'newPayee.address2', 'Address line 2', fields.address2, { maxlength: 100 })}</div>
<div class="row">${textInput(view, 'newPayee.city', 'City', fields.city, { maxlength: 60 })}${textInput(view, 'newPayee.state', 'State', fields.state, { maxlength: 60 })}${textInput(view, 'newPayee.zip', 'ZIP code', fields.zip, { maxlength: 20 })}</div>
</details>`;
}

function amountControl(view: FormView): Html {
  const { values } = view;
  return html`<div class="row"><div><label for="amount">Amount <span class="hint" id="amount-hint">dollars, e.g. 1234.56</span></label>
<input id="amount" name="amount" type="text" inputmode="decimal" value="${values.amount}" maxlength="40" autocomplete="off" data-words="amount-words"${invalid(view, 'amount', 'amount-hint')}>${errorOf(view, 'amount')}</div>
<div><span class="label" id="amount-words-label">In words</span><output id="amount-words" class="words" for="amount" aria-labelledby="amount-words-label" aria-live="polite">${wordsFor(values.amount)}</output></div></div>`;
}

function categoryControl(view: FormView): Html {
  const { values, choices } = view;
  return html`<div><label for="categoryId">Category</label>
<select id="categoryId" name="categoryId"${invalid(view, 'categoryId')}><option value="">None</option>${choices.categories.map(
    (c) => html`<option value="${c.id}"${values.categoryId === c.id ? html` selected` : ''}>${c.name}</option>`,
  )}</select>${errorOf(view, 'categoryId')}</div>`;
}

function voucherControl(view: FormView): Html {
  return html`<fieldset class="lines"><legend>Voucher lines <span class="hint">printed on the stub; leave empty for none</span></legend>
${view.values.lines.map(
  (line, i) =>
    html`<div class="row">${textInput(view, `voucher.${i}.description`, `Line ${i + 1} description`, line.description, { maxlength: 200 })}${textInput(view, `voucher.${i}.amount`, `Line ${i + 1} amount`, line.amount, { maxlength: 40 })}</div>`,
)}</fieldset>`;
}

export function checkForm(view: FormView): Html {
  const { values, request, env } = view;
  return html`<form method="post" action="${view.action}" class="card check-form" novalidate>${csrfField(request)}
${env === 'live' ? html`<input type="hidden" name="env" value="live">` : ''}
${bankAccountControl(view)}
${payeeControl(view)}
${amountControl(view)}
<div class="row">${
    // Plain text, not type=date: Chromium's date box takes Tab for its own day/month/year parts.
    textInput(view, 'issueDate', 'Date', values.issueDate, { maxlength: 10, hint: 'YYYY-MM-DD' })
  }${textInput(view, 'invoiceNumber', 'Invoice number', values.invoiceNumber, { maxlength: 50 })}</div>
${textInput(view, 'memo', 'Memo', values.memo, { maxlength: 150 })}
${categoryControl(view)}
${voucherControl(view)}
<button type="submit">${view.submitLabel}</button>
</form>`;
}
