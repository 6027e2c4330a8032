// Form bodies (application/x-www-form-urlencoded) as the panel's pages post them.
import { validationError } from '../errors.ts';

export type FormBody = Record<string, string | string[]>;

export function parseForm(text: string): FormBody {
  const body: FormBody = {};
  for (const [key, value] of new URLSearchParams(text)) {
    // PostgreSQL text cannot hold U+0000 and no field needs it (as in JSON bodies).
    if (key.includes('\u0000') || value.includes('\u0000')) throw validationError(`The ${key.replace(/\u0000/g, '')} field must not contain NUL characters.`);
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
