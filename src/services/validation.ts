// Messages for rules the route schemas cannot express (they depend on other fields or on the
// database). Same Laravel-style wording as the schema messages: the field path, then the rule.
import { validationError, type AppError } from '../errors.ts';

export const rules = {
  required: (path: string): AppError => validationError(`The ${path} field is required.`),
  invalid: (path: string): AppError => validationError(`The selected ${path} is invalid.`),
  taken: (path: string): AppError => validationError(`The ${path} has already been taken.`),
  distinct: (path: string): AppError => validationError(`The ${path} field has a duplicate value.`),
  custom: (path: string, rule: string): AppError => validationError(`The ${path} field ${rule}.`),
};

/** An optional id or text where '' means "none", as stored: null. */
export function emptyToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === '' ? null : value;
}
