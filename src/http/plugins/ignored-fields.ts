// Fields the hosted service's clients send that this service does not use (docs/api-notes.md,
// "Fields accepted and ignored"). The hosted service takes them without a word; refusing them
// would break those clients for a field that changes nothing here. Each is removed before the
// body is validated, and the response says which in `X-Ignored-Fields`, so nothing is dropped in
// silence. Any other unknown field is still a 422 (with "Did you mean …?" when it is a misspelling
// of one of ours): only this list is ignored.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { QuickpayCheckBody, QuickpayMailCheckBody } from '../../schemas/quickpay.ts';

export const IGNORED_FIELDS_HEADER = 'x-ignored-fields';

// Paths into the body; `*` stands for every item of an array.
const OTHER_RAILS = ['destination.routing_number', 'destination.account_number'];
const IGNORED = new Map<object, readonly string[]>([
  // One envelope builder serves every rail in the census's clients: the direct-deposit and wire
  // fields, and the mail-only shipping choice, arrive on /quickpay/check too.
  [QuickpayCheckBody, [...OTHER_RAILS, 'destination.shippingTypeId', 'shipping']],
  [QuickpayMailCheckBody, OTHER_RAILS],
]);

/** Removes `path` (split on dots) from `value` in place; true when something was there. */
function remove(value: unknown, path: readonly string[]): boolean {
  const [head, ...rest] = path;
  if (head === undefined || typeof value !== 'object' || value === null) return false;
  if (head === '*') {
    if (!Array.isArray(value)) return false;
    let found = false;
    for (const item of value) found = remove(item, rest) || found;
    return found;
  }
  if (Array.isArray(value) || !Object.hasOwn(value, head)) return false;
  const record = value as Record<string, unknown>;
  if (rest.length > 0) return remove(record[head], rest);
  delete record[head];
  return true;
}

/** The ignored paths found (and removed) in `body`. */
export function dropIgnoredFields(paths: readonly string[], body: unknown): string[] {
  return paths.filter((path) => remove(body, path.split('.')));
}

export function registerIgnoredFields(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    const schema = route.schema?.body;
    const paths = typeof schema === 'object' && schema !== null ? IGNORED.get(schema) : undefined;
    if (paths === undefined) return;
    const drop = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
      const dropped = dropIgnoredFields(paths, request.body);
      if (dropped.length > 0) reply.header(IGNORED_FIELDS_HEADER, dropped.join(', '));
      done();
    };
    route.preValidation = [
      drop,
      ...(route.preValidation === undefined
        ? []
        : Array.isArray(route.preValidation)
          ? route.preValidation
          : [route.preValidation]),
    ];
  });
}
