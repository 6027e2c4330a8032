// Request validation: the route schemas (TypeBox) are compiled with Ajv (schemas/validator.ts), and
// the first failure is worded with the field path. Bodies are validated strictly (no coercion,
// unknown fields refused); query strings and path parameters are coerced from text to their types.
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { makeAjv } from '../schemas/validator.ts';

// The panel's forms word their failures as the API does.
export { describeValidationError } from '../schemas/validator.ts';

// The two Ajv instances are made at the first compile, not when this module loads: making them
// (formats and keywords added) was ~10 ms of every start, before the first answer.
let bodyAjv: Ajv | null = null;
let queryAjv: Ajv | null = null;

function ajvFor(httpPart: string | undefined): Ajv {
  if (httpPart === 'body') {
    bodyAjv ??= makeAjv(false);
    return bodyAjv;
  }
  queryAjv ??= makeAjv(true);
  return queryAjv;
}

// Each route's validator is compiled by Ajv on the route's first request, not while the server
// starts: compiling all of them up front cost about a third of the start-up time (`npm start` to
// the first answer), which has a target of its own in bench/. A schema Ajv cannot compile still
// fails loudly: test/http/bad-input.routes.property.test.ts sends every route of the OpenAPI
// document bodies and queries, and a 5xx fails it.
//
// Compiled on the request path, though, a validator holds the event loop while a tenant's request
// waits for it, and the first compile of each Ajv also compiles Ajv's meta-schema (tens of
// milliseconds: the longest stall of a 10,000-row import on a fresh server, measured with the
// bench's /healthz polls). So the server compiles the ones not yet used once it listens, one per
// turn of the event loop (`compilePendingValidators`, called by server.ts), and a request only
// compiles a validator that the warm-up has not reached yet.

/** The validators no request has compiled yet, in the order their routes were registered. */
const pending = new Set<() => void>();

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  let compiled: ValidateFunction | undefined;
  const compile = (): ValidateFunction => {
    if (compiled === undefined) {
      compiled = ajvFor(httpPart).compile(schema);
      pending.delete(compile);
    }
    return compiled;
  };
  pending.add(compile);
  const validate = (data: unknown): boolean => {
    const ready = compile();
    const valid = ready(data) as boolean;
    validate.errors = ready.errors;
    return valid;
  };
  validate.errors = null as ErrorObject[] | null | undefined;
  return validate as ReturnType<FastifySchemaCompiler<object>>;
};

/**
 * Compiles every validator not compiled yet, one per turn of the event loop, so requests and
 * /healthz are answered between two compiles. Answers how many it compiled.
 */
export async function compilePendingValidators(): Promise<number> {
  let compiled = 0;
  for (const compile of [...pending]) {
    await new Promise((resolve) => setImmediate(resolve));
    if (!pending.has(compile)) continue;
    try {
      compile();
      compiled += 1;
    } catch {
      // Left to the route's first request, which fails loudly with it (a 5xx the tests catch).
      pending.delete(compile);
    }
  }
  return compiled;
}
