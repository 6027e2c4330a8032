// Forms of the records and settings pages (issue 14, item 2): fields drawn with their labels and,
// when a rule refused them, their message right under the field. The rules are the API's own: a
// form is checked against the same TypeBox schema its API route declares (worded by the same
// describeValidationError), and the service's rules come back as its AppError messages, which are
// placed beside the field they name.
import { AppError } from '../../errors.ts';
import { describeValidationError, everyFailure } from '../../schemas/validator.ts';
import { unsentOf } from './form.ts';
import { html, type Html } from './html.ts';
import { withLabel } from './wording.ts';

export interface FieldSpec {
  name: string;
  label: string;
  kind?: 'text' | 'email' | 'tel' | 'number' | 'textarea' | 'select';
  required?: boolean;
  maxLength?: number;
  hint?: string;
  autocomplete?: string;
  inputmode?: 'numeric';
  /** The id of a <datalist> of suggestions. */
  list?: string;
  options?: readonly { value: string; label: string }[];
}

export type Values = Record<string, string>;
export type Problems = Record<string, string>;

function fieldId(name: string): string {
  return `f-${name}`;
}

export function renderField(spec: FieldSpec, values: Values, problems: Problems): Html {
  const id = fieldId(spec.name);
  const value = values[spec.name] ?? '';
  // The API's message, worded with this field's label ("The routing number field …").
  const given = problems[spec.name];
  const problem = given === undefined ? undefined : withLabel(given, spec.name, spec.label);
  const errorId = `${id}-error`;
  const invalid = problem === undefined ? '' : html` aria-invalid="true" aria-describedby="${errorId}"`;
  const common = html`id="${id}" name="${spec.name}"${spec.required === true ? html` required` : ''}${
    spec.maxLength === undefined ? '' : html` maxlength="${spec.maxLength}"`
  }${spec.autocomplete === undefined ? '' : html` autocomplete="${spec.autocomplete}"`}${
    spec.list === undefined ? '' : html` list="${spec.list}"`
  }${invalid}`;
  let control: Html;
  if (spec.kind === 'textarea') control = html`<textarea ${common} rows="3">${value}</textarea>`;
  else if (spec.kind === 'select') {
    control = html`<select ${common}>${(spec.options ?? []).map(
      (o) => html`<option value="${o.value}"${o.value === value ? html` selected` : ''}>${o.label}</option>`,
    )}</select>`;
  } else {
    // Numbers are typed as text with a numeric keyboard: the API's rule, not the browser's, decides.
    const type = spec.kind === 'number' || spec.kind === undefined ? 'text' : spec.kind;
    const mode = spec.inputmode ?? (spec.kind === 'number' ? 'numeric' : undefined);
    control = html`<input type="${type}" ${common}${mode === undefined ? '' : html` inputmode="${mode}"`} value="${value}">`;
  }
  return html`<label for="${id}">${spec.label}${spec.required === true ? '' : html` <span class="hint">(optional)</span>`}${
    spec.hint === undefined ? '' : html` <span class="hint">— ${spec.hint}</span>`
  }</label>${control}${problem === undefined ? '' : html`<p class="field-error" id="${errorId}">${problem}</p>`}`;
}

export function renderFields(specs: readonly FieldSpec[], values: Values, problems: Problems): Html {
  return html`${specs.map((s) => renderField(s, values, problems))}`;
}

/** A short line above the form saying how many fields need attention (the messages are by the fields). */
export function problemSummary(problems: Problems): string | undefined {
  const n = Object.keys(problems).length;
  if (n === 0) return undefined;
  return n === 1
    ? 'One field needs attention: see the message under it.'
    : `${n} fields need attention: see the messages under them.`;
}

/**
 * Every field the API's schema refuses, as field → message. Paths are the form's field names, so
 * "The name field is required." reads as the API would say it for one item. The schema is checked
 * as the API's body validator checks it, except that every failing field is reported, not only the
 * first: a form shows all its problems at once.
 */
export function schemaProblems(schema: object, value: Record<string, unknown>): Problems {
  const problems: Problems = {};
  for (const error of everyFailure(schema, value)) {
    const path = error.instancePath.split('/').filter((p) => p !== '');
    const params = error.params as Record<string, unknown>;
    const name = error.keyword === 'required' ? String(params.missingProperty) : (path[0] ?? '');
    // A union reports each branch and then itself: the union's own (last) message is the one the API gives.
    if (name !== '') problems[name] = describeValidationError(error, name);
  }
  return problems;
}

/**
 * A service's validation error placed by the field it names: "The payees.0.phone field must be …"
 * becomes phone → "The phone field must be …". Null when it names none of `fields`.
 */
export function fieldProblem(error: unknown, fields: readonly string[]): Problems | null {
  if (!(error instanceof AppError) || error.code !== 'validation') return null;
  const message = error.message.replace(/^Validation error: /, '');
  const match = /^The (?:selected )?([\w.]+) (?:field|is|has)/.exec(message);
  const path = match?.[1];
  if (path === undefined) return null;
  const name = path.split('.').at(-1) ?? path;
  if (!fields.includes(name)) return null;
  return { [name]: message.replace(path, name) };
}

/**
 * The fields of `names` an edit form's body lacks, each with its message. A browser sends every
 * field of the form it drew (an empty box as ''); a body without one (a hand-made request, a form
 * of an older version) is refused, not read as '', which would clear what is stored.
 */
export function unsentFields(body: unknown, names: readonly string[]): Problems {
  const problems: Problems = {};
  for (const name of unsentOf(body, names))
    problems[name] = `The ${name} field was not sent with the form: reload the page and try again.`;
  return problems;
}

/** Text fields of a posted form, trimmed at the ends as a person means them. */
export function formValues(body: unknown, names: readonly string[]): Values {
  const out: Values = {};
  const record = (body ?? {}) as Record<string, unknown>;
  for (const name of names) {
    const raw = record[name];
    const value = Array.isArray(raw) ? raw.at(-1) : raw;
    out[name] = typeof value === 'string' ? value.trim() : '';
  }
  return out;
}
