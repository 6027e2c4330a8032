// Request validation: the route schemas (TypeBox) are compiled with Ajv (schemas/validator.ts), and
// the first failure is worded with the field path. Bodies are validated strictly (no coercion,
// unknown fields refused); query strings and path parameters are coerced from text to their types.
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { makeAjv } from '../schemas/validator.ts';

// The panel's forms word their failures as the API does.
export { describeValidationError } from '../schemas/validator.ts';

const bodyAjv = makeAjv(false);
const queryAjv = makeAjv(true);

// Each route's validator is compiled by Ajv on the route's first request, not while the server
// starts: compiling all of them up front cost about a third of the start-up time (`npm start` to
// the first answer), which has a target of its own in bench/. The first request of a route pays a
// few milliseconds once; a schema Ajv cannot compile still fails loudly:
// test/http/bad-input.routes.property.test.ts sends every route of the OpenAPI document bodies and
// queries, and a 5xx fails it.
export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown): boolean => {
    compiled ??= ajv.compile(schema);
    const valid = compiled(data) as boolean;
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = null as ErrorObject[] | null | undefined;
  return validate as ReturnType<FastifySchemaCompiler<object>>;
};
