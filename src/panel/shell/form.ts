// Form bodies (application/x-www-form-urlencoded) as the panel's pages post them.
import { AppError, validationError } from '../../errors.ts';
import { printable, unsafeCharacter, unsafeTextMessage } from '../../domain/safe-text.ts';

export type FormBody = Record<string, string | string[]>;

/**
 * Most fields one form post may carry. The panel's largest forms post a register page's ticked
 * checks (500) and an import's column choices (200). Counted on the raw text before it is parsed:
 * 7,000 fields in the 64 KB a form may be cost ~100 ms of the event loop to parse, hence the cap.
 */
export const MAX_FORM_FIELDS = 2_000;

export function parseForm(text: string): FormBody {
  let fields = 1;
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1))
    if (++fields > MAX_FORM_FIELDS)
      throw new AppError('payload_too_large', `The form has more than ${MAX_FORM_FIELDS} fields.`);
  const body: FormBody = {};
  for (const [key, value] of new URLSearchParams(text)) {
    // As in JSON bodies (domain/safe-text.ts): no NUL (PostgreSQL text cannot hold it) and no
    // control or bidi character in anything that is printed, mailed or shown. A password is none
    // of those and is only hashed, so it may hold what its owner typed, except NUL.
    const kind =
      unsafeCharacter(key) ??
      (/password/i.test(key) ? (value.includes('\u0000') ? 'nul' : null) : unsafeCharacter(value));
    if (kind !== null) throw validationError(unsafeTextMessage(printable(key), kind));
    const existing = body[key];
    body[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return body;
}

/** One text field ('' when absent; the last value when repeated). */
export function field(body: unknown, name: string): string {
  const value = (body as FormBody | undefined)?.[name];
  if (Array.isArray(value)) return value.at(-1) ?? '';
  return value ?? '';
}

/**
 * A field its form always sends (a select, a hidden field), '' included: a body without it (a
 * hand-made request, a form of an older version) is refused with `problem` (422), never read as ''
 * — which would mean "none", "every", "off" or "clear" to the action.
 */
export function sentField(body: unknown, name: string, problem: string): string {
  if (unsentOf(body, [name]).length > 0) throw new AppError('validation', problem);
  return field(body, name);
}

/**
 * The names of `names` a posted body lacks, in their order. A browser sends every field of the
 * form it drew (an empty box as ''); the pages refuse a body without one (sentField, unsentFields,
 * unsentEditField) instead of reading it as ''.
 */
export function unsentOf(body: unknown, names: readonly string[]): string[] {
  const posted = (body ?? {}) as Partial<FormBody>;
  return names.filter((name) => posted[name] === undefined);
}

/** Every value of a repeated field (checkboxes). */
export function fields(body: unknown, name: string): string[] {
  const value = (body as FormBody | undefined)?.[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** A query-string value as text ('' when absent or repeated oddly). */
export function queryText(query: unknown, name: string): string {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}
