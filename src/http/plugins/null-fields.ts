// An optional field sent as `null` means "not given" (API decisions, "Wire basics", revised for
// the clients in the field): Python's None, Java's null and the workflow tools' unset
// inputs all arrive as `null`. Before the body is validated, every `null` whose field does not
// itself take null (a check's `payeeId`, a bank account's `customFromAddressId`, ... where null
// is a value) is removed, so the schema then sees the field as absent: optional fields are
// skipped, required ones are "required", and on PUT the field stays as it is. A null under a key
// the schema does not know is left in place, so an unknown field is still a 422.
//
// An empty string is "not given" the same way, on an optional field that
// cannot hold one: the hosted service's framework turns empty strings into null, so its clients
// send `"payeePhone": ""` or `"issueDate": ""` for a value they do not have. Where "" is a value
// of the field (a memo, a payee's company: "" empties it on PUT) it stays, and on a required field
// it stays too, so the answer is still "required".
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function takesNull(schema: Schema): boolean {
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema.const === null) return true;
  const branches = schema.anyOf ?? schema.oneOf;
  return Array.isArray(branches) && branches.some((b) => isSchema(b) && takesNull(b));
}

/** Whether "" is a value of the field (a string with no minimum length, pattern or format that refuses it). */
function takesEmptyString(schema: Schema): boolean {
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return branches.some((b) => isSchema(b) && takesEmptyString(b));
  if ('const' in schema) return schema.const === '';
  if (Array.isArray(schema.enum)) return schema.enum.includes('');
  const type = schema.type;
  if (type !== 'string' && !(Array.isArray(type) && type.includes('string'))) return false;
  if (typeof schema.minLength === 'number' && schema.minLength > 0) return false;
  if (typeof schema.format === 'string') return false;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test('')) return false;
  return true;
}

/** Removes, in place, the nulls and empty strings `schema` reads as "not given" (one walk of `value` per union branch). */
export function dropNullFields(schema: Schema, value: unknown): void {
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    for (const branch of branches) if (isSchema(branch)) dropNullFields(branch, value);
    return;
  }
  if (Array.isArray(value)) {
    if (isSchema(schema.items)) for (const item of value) dropNullFields(schema.items, item);
    return;
  }
  if (!isSchema(value) || !isSchema(schema.properties)) return;
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const [key, item] of Object.entries(value)) {
    const field = schema.properties[key];
    if (!isSchema(field)) continue;
    if (item === null) {
      if (!takesNull(field)) delete value[key];
    } else if (item === '') {
      if (!required.includes(key) && !takesEmptyString(field)) delete value[key];
    } else {
      dropNullFields(field, item);
    }
  }
}

export function registerNullFields(scope: FastifyInstance): void {
  // Only routes that take a JSON body get the hook: a GET pays nothing on the hot read path.
  scope.addHook('onRoute', (route) => {
    const schema = route.schema?.body;
    if (!isSchema(schema)) return;
    const dropNulls = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
      if (typeof request.body === 'object' && request.body !== null) dropNullFields(schema, request.body);
      done();
    };
    route.preValidation = [
      ...(route.preValidation === undefined
        ? []
        : Array.isArray(route.preValidation)
          ? route.preValidation
          : [route.preValidation]),
      dropNulls,
    ];
  });
}
