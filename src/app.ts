// buildApp wires the service together and returns a Fastify instance that has not started
// listening: tests drive it through inject or a port, server.ts listens. The only place where
// real implementations meet.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import { REDACTED, redactUrl } from './domain/redact.ts';
import { HEADER_PATHS, OneLinePerRequest } from './http/access-line.ts';
import { logDestination } from './log-stream.ts';
import type { Db } from './store/db.ts';
import type { ApiKeys } from './services/api-key.service.ts';
import type { ServiceContext } from './services/context.ts';
import { registerAuth } from './http/plugins/auth.ts';
import { registerMetrics } from './http/plugins/metrics.ts';
import type { Metrics } from './metrics.ts';
import { clientErrorHandler, frameworkErrors, MAX_PARAM_LENGTH, registerErrorHandling } from './http/plugins/errors.ts';
import { toWire } from './errors.ts';
import { AddressLimiter } from './http/plugins/address-limiter.ts';
import { SharedLimits, SharedRate } from './services/shared-limits.service.ts';
import { registerContentEncoding } from './http/plugins/content-encoding.ts';
import { registerFormBody } from './http/plugins/form-body.ts';
import { registerJsonBody } from './http/plugins/json-body.ts';
import { registerIdempotency } from './http/plugins/idempotency.ts';
import { registerNullFields } from './http/plugins/null-fields.ts';
import { registerIgnoredFields } from './http/plugins/ignored-fields.ts';
import { validatorCompiler } from './http/validation.ts';
import { buildLazySerializer } from './http/lazy-serializers.ts';
import { ErrorBody, UnauthenticatedBody } from './schemas/common.ts';
import { apiRoutes } from './http/routes/index.ts';
import { registerPayeePage } from './http/pages/payee-page.route.ts';
import { registerPanel } from './panel/panel.ts';
import { fastifyTrustProxy } from './http/trust-proxy.ts';
import { ImportRunner } from './services/imports/runner.service.ts';
import type { HeavyWork } from './heavy-work/heavy-work.ts';
import { clientSignalDone, withClientSignal } from './heavy-work/request-signal.ts';
import { openHeavyWork } from './heavy-work/open-heavy-work.ts';

export const API_PREFIX = '/api/v3';

/** What /readyz needs beyond the database: whether this server is shutting down (server.ts). */
export interface Readiness {
  shuttingDown: boolean;
}

/** How long one answer of /readyz is reused: a load balancer checking every 100 ms costs one query a second. */
const READINESS_CACHE_MS = 1_000;

export interface AppDeps {
  db: Db;
  keys: ApiKeys;
  /** Set by server.ts; without it (tests of the app alone) the server never reports shutting down. */
  readiness?: Readiness;
  now?: () => number;
  /** Prometheus metrics, when METRICS_TOKEN or METRICS_PORT turns them on (server.ts). */
  metrics?: Metrics;
  /**
   * Where heavy work runs. When not given, the app opens its own (the pool the configuration
   * describes, config.heavyWork) and destroys it when it closes.
   */
  heavyWork?: HeavyWork;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route's handler never starts heavy work, so it runs without the client signal (app.ts). */
    startsHeavyWork?: false;
  }
}

function enterClientSignal(_request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  withClientSignal(reply.raw, done);
}

function leaveClientSignal(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  clientSignalDone(reply.raw);
  done(null, payload);
}

/** A route's own hooks of one kind as a list (Fastify takes one function or a list). */
function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const destination = await logDestination(config.logFormat);
  const app = Fastify({
    logger: {
      level: config.logLevel,
      stream: destination,
      // No credential in any log line (docs/security.md): payee-link paths and
      // token query values are blanked, and credential headers are censored should a serializer
      // ever include them.
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          hostname: request.hostname,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
      },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', ...HEADER_PATHS],
        censor: REDACTED,
      },
    },
    logController: new OneLinePerRequest(),
    // Response serializers are compiled at their first answer, not all of them at start-up.
    schemaController: { compilersFactory: { buildSerializer: buildLazySerializer } },
    // request.log is the server's logger itself, not a child made for each request; lines about a
    // request carry its reqId explicitly.
    childLoggerFactory: (logger) => logger,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // A caller's own X-Request-Id is kept when it is a plain token, so both sides log the same id.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // A path id longer than any id of this service cannot name anything: past this length the
    // router stops matching and frameworkErrors answers (errors.ts), in the spec's error shape.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler,
    // Node answers an HTTP/1.1 request without Host with a bare 400 of its own; the hook below
    // answers it instead, in the spec's error shape, never as a 500.
    http: { requireHostHeader: false },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const heavyWork = deps.heavyWork ?? openHeavyWork(config.heavyWork, app.log);
  // After in-flight requests have answered (onClose), so none of them loses its task.
  if (deps.heavyWork === undefined) app.addHook('onClose', async () => heavyWork.close());
  const ctx: ServiceContext = {
    db: deps.db,
    config,
    now: deps.now ?? Date.now,
    secret: deps.keys.secret,
    vault: deps.keys.vault,
    heavyWork,
  };

  app.setValidatorCompiler(validatorCompiler);
  app.decorateRequest('principal', null);
  // The handler runs with a signal that aborts when its client hangs up: heavy work it started
  // for nobody leaves the pool's queue or is stopped (heavy-work/request-signal.ts). preHandler,
  // after the body is read: the body's stream events would run outside the signal's context; left
  // at onSend, when the handler has answered. A route that never starts heavy work says so
  // (`config: { startsHeavyWork: false }`, the hot reads) and runs without it: entering the
  // signal's AsyncLocalStorage turns on async hooks for the whole process while any handler is
  // inside it (docs/benchmarks.md, "GET /checks/{id}: async hooks off").
  app.addHook('onRoute', (route) => {
    if (route.config?.startsHeavyWork === false) return;
    route.preHandler = [enterClientSignal, ...hooksOf(route.preHandler)];
    route.onSend = [leaveClientSignal, ...hooksOf(route.onSend)];
  });
  // Hooks on every request are callback-style, not async: no promise per request on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      reply
        .code(400)
        .header('connection', 'close')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(toWire('bad_request', 'The request has no Host header, which HTTP/1.1 requires.')));
      return;
    }
    done();
  });
  // Graceful shutdown: idle keep-alive connections are closed when close() starts; a request still
  // in flight then answers with `Connection: close`, so its socket ends with it instead of holding
  // the server open for the keep-alive timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  if (deps.metrics !== undefined) registerMetrics(app, deps.metrics, config.metrics.token);
  // The abuse limits, counted in the database so that every server sees every count.
  const limits = new SharedLimits(deps.db, deps.keys.secret);
  // One budget of failed requests per client address, shared by unknown paths and bad keys.
  const failures =
    config.failedRequestsPerMinute > 0 ? new AddressLimiter(limits, config.failedRequestsPerMinute) : null;
  // The per-key rate, shared with the other servers every RATE_SYNC_MS (not on the request path).
  const rate = config.rateLimitPerKey > 0 ? new SharedRate(limits, deps.db, config.rateLimitPerKey) : null;
  if (rate !== null) {
    app.addHook('onReady', async () => rate.start());
    app.addHook('onClose', async () => rate.stop());
  }
  registerErrorHandling(app, failures);
  app.addSchema(ErrorBody);
  app.addSchema(UnauthenticatedBody);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Check Writing Service API',
        version: '3.0.0',
        description:
          'checkwriter: the Check Writing API v3. All paths are relative to the environment base URL, which ends in /api/v3. ' +
          'An optional body field sent as null is read as not given (on PUT the field stays as it is), except where the schema lists null as a value. ' +
          'An empty body with Content-Type: application/json is no body. See docs/api-notes.md, "What we accept beyond the letter of the spec".',
      },
      servers: [{ url: `${config.publicUrl}${API_PREFIX}` }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearerAuth: [] }],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    // Paths in the document are relative to the base URL, as the spec writes them.
    transform: ({ schema, url }) => ({ schema, url: url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) : url }),
  });

  // Liveness: the process runs and its event loop answers. No database query: a database failing
  // over is not a reason to restart this process (readiness below says whether to send it writes).
  // Anyone can ask, so it names nothing (no database, no delivery provider): the start banner
  // tells the operator those.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  // Readiness: whether this server can write now (docs/operations.md, "Liveness and readiness").
  // No key needed and nothing secret in it; the answer is reused for READINESS_CACHE_MS.
  const readiness = deps.readiness ?? { shuttingDown: false };
  let lastCheck: { at: number; writable: Promise<boolean> } | null = null;
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (readiness.shuttingDown) return reply.code(503).header('retry-after', '1').send({ status: 'shutting down' });
    const now = performance.now();
    if (lastCheck === null || now - lastCheck.at >= READINESS_CACHE_MS)
      lastCheck = { at: now, writable: deps.db.writable() };
    if (await lastCheck.writable) return { status: 'ready' };
    if (deps.db.storage().full)
      return reply.code(503).header('retry-after', '30').send({ status: 'database disk full' });
    return reply.code(503).header('retry-after', '1').send({ status: 'database not writable' });
  });

  // CSV imports finish in the background; one left unfinished by a stopped process is done again.
  const imports = new ImportRunner(ctx, app.log);
  app.addHook('onReady', async () => imports.start());
  app.addHook('onClose', async () => imports.stop());

  await registerPayeePage(app, ctx);
  await registerPanel(app, { ctx, keys: deps.keys, limits });

  await app.register(
    async (api) => {
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await api.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' }, staticCSP: true });
      await api.register(async (secured) => {
        registerAuth(secured, deps.keys, rate, failures);
        // Bodies are parsed only here, after the key was checked, so an anonymous body costs nothing.
        registerContentEncoding(secured);
        registerJsonBody(secured);
        registerFormBody(secured);
        registerIdempotency(secured, ctx);
        registerNullFields(secured);
        registerIgnoredFields(secured);
        for (const routes of apiRoutes) await secured.register(routes, { ctx });
      });
    },
    { prefix: API_PREFIX },
  );

  return app;
}
