// Response serializers compiled at a route's first answer with each status, not when the route is
// registered. Fastify compiles every response schema of every route (fast-json-stringify) while
// the app is built: a tenth of a second of each start, for routes most processes never answer
// with most of their statuses. The compiler is the one Fastify uses itself, loaded from
// Fastify's own folder, so what is written is the same; only when changes.
import { createRequire } from 'node:module';

/** What Fastify hands a serializer compiler for one response schema. */
interface RouteSchema {
  schema?: unknown;
  method?: string;
  url?: string;
  httpStatus?: string;
  contentType?: string;
}

type Serializer = (data: unknown) => string;
type SerializerFactory = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => Serializer;

let selector: (() => SerializerFactory) | null = null;

/** @fastify/fast-json-stringify-compiler, resolved from fastify's folder: Fastify's own dependency. */
function fastifySerializers(): SerializerFactory {
  if (selector === null) {
    const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
    selector = fromFastify('@fastify/fast-json-stringify-compiler') as () => SerializerFactory;
  }
  return selector();
}

/**
 * Fastify's `schemaController.compilersFactory.buildSerializer`: the same serializers as Fastify's
 * default, each built the first time it writes an answer.
 */
export function buildLazySerializer(externalSchemas: unknown, options: unknown): (route: RouteSchema) => Serializer {
  let compile: ((route: RouteSchema) => Serializer) | null = null;
  return (route) => {
    let serialize: Serializer | null = null;
    return (data) => {
      if (serialize === null) {
        compile ??= fastifySerializers()(externalSchemas, options);
        serialize = compile(route);
      }
      return serialize(data);
    };
  };
}
