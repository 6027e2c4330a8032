// Starts the service: database (waiting for it), migrations, the key verifier, the HTTP app;
// listens; and closes gracefully on SIGINT/SIGTERM (docs/operations.md, "Shutdown": readiness
// turns 503, in-flight requests and held background work finish within a bound, then the
// database closes).
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp, type Readiness } from './app.ts';
import { compilePendingValidators } from './http/validation.ts';
import { ConfigError, type Config } from './config.ts';
import { redactUrlPassword } from './domain/redact.ts';
import { ApiKeys } from './services/api-key.service.ts';
import { cannotOpen, checkOpens, connect } from './store/connect.ts';
import type { Db } from './store/db.ts';
import { migrate } from './store/migrate.ts';
import { PostgresDb } from './store/postgres.ts';
import { buildDeliveryWorker } from './delivery-worker.ts';
import { purgeExpired } from './services/idempotency.service.ts';
import { purgeExpiredSessions } from './services/account.service.ts';
import type { MetricsListener } from './metrics-server.ts';
import { outboxDepth } from './store/outbox.repository.ts';
import { isTransientDatabaseError } from './store/transient.ts';

const HOUSEKEEPING_MS = 10 * 60 * 1000;

export interface RunningServer {
  app: FastifyInstance;
  db: Db;
  url: string;
  /** The separate metrics listener's URL (METRICS_PORT), or null. */
  metricsUrl: string | null;
  close: () => Promise<void>;
}

/** Where start-up says that it waits for the database. */
export interface StartLog {
  warn(entry: object, message: string): void;
}

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 5_000;

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Opens the database and brings its schema up to date. A database that cannot be reached yet, or
 * is read-only while migrations are due (a standby during a failover), is waited for with
 * backoff up to DATABASE_WAIT_SECONDS, each attempt logged with the address (password masked);
 * any other error (a wrong schema, a refused secret) ends the start at once.
 */
export async function openDatabase(config: Config, log: StartLog = pino({ level: config.logLevel })): Promise<Db> {
  const waitMs = (config.database.waitSeconds ?? 0) * 1000;
  const started = Date.now();
  let db: Db;
  try {
    db = connect(config.database, { server: true });
  } catch (error) {
    throw cannotOpen(config.database, error);
  }
  let delay = FIRST_RETRY_MS;
  for (let attempt = 1; ; attempt += 1) {
    try {
      // A database that cannot be opened at all (an unknown host, role or database) is said so at once.
      await checkOpens(db, config.database);
      await migrate(db, config);
      break;
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause ?? error;
      const reason = cause instanceof Error ? cause.message : String(cause);
      const waited = Date.now() - started;
      if (!isTransientDatabaseError(error) || waited >= waitMs) {
        await db.close().catch(() => undefined);
        if (!isTransientDatabaseError(error)) throw error;
        throw new ConfigError(
          `the database ${redactUrlPassword(config.database.url)} did not answer within DATABASE_WAIT_SECONDS=${config.database.waitSeconds ?? 0}: ${reason}`,
        );
      }
      const pause = Math.min(delay, waitMs - waited);
      log.warn(
        { database: redactUrlPassword(config.database.url), attempt, retryInMs: pause, reason },
        'waiting for the database',
      );
      await wait(pause);
      delay = Math.min(delay * 2, LONGEST_RETRY_MS);
    }
  }
  // The listener retries by itself (every second) while it cannot connect or LISTEN (a standby
  // refuses LISTEN); until it listens, cached keys are checked against the database on every use.
  if (db instanceof PostgresDb) await db.listenForKeyChanges().catch(() => undefined);
  return db;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const log = pino({ level: config.logLevel });
  const db = await openDatabase(config, log);
  // A secret that does not match the database refuses the start (server-secret.ts); the pool and
  // the LISTEN connection are closed so the process ends with its message instead of hanging.
  const keys = await ApiKeys.open(db, config).catch(async (error: unknown) => {
    await db.close().catch(() => undefined);
    throw error;
  });
  // prom-client is loaded only when metrics are on (most starts do without them).
  const metrics =
    config.metrics.token !== '' || config.metrics.port !== null
      ? new (await import('./metrics.ts')).Metrics()
      : undefined;
  if (metrics !== undefined) {
    metrics.watchOutbox(() => outboxDepth(db, Date.now()));
    if (db instanceof PostgresDb) metrics.watchPool(() => db.poolUse());
    metrics.watchStorage(() => db.storage());
  }
  const readiness: Readiness = { shuttingDown: false };
  const app = await buildApp(config, { db, keys, readiness, ...(metrics === undefined ? {} : { metrics }) });
  const delivery =
    config.delivery.worker === 'inline' ? buildDeliveryWorker(config, db, keys.secret, app.log, metrics) : null;
  const url = await app.listen({ host: config.host, port: config.port });
  let metricsListener: MetricsListener | null = null;
  if (metrics !== undefined && config.metrics.port !== null) {
    try {
      const { listenForMetrics } = await import('./metrics-server.ts');
      metricsListener = await listenForMetrics(metrics, config.metrics.host, config.metrics.port, config.metrics.token);
    } catch (error) {
      await app.close();
      await db.close();
      throw error;
    }
  }
  delivery?.worker.start();
  // The routes' validators a request has not compiled yet are compiled once the server has started
  // and answered its first requests (http/validation.ts says why): off the request path, one per
  // turn of the event loop, and late enough not to delay the first answer, which has its own target.
  const warmUp = setTimeout(() => {
    compilePendingValidators().catch((error: unknown) => app.log.warn({ err: error }, 'compiling validators failed'));
  }, VALIDATORS_WARM_UP_AFTER_MS);
  warmUp.unref();
  // Idempotency keys are kept 24 hours and panel sessions 7 days; older records are removed here
  // rather than on the request path.
  const housekeeping = (): void => {
    const ctx = { db, now: Date.now, config };
    purgeExpired(ctx).catch((error: unknown) => app.log.warn({ err: error }, 'purging idempotency keys failed'));
    purgeExpiredSessions(ctx).catch((error: unknown) => app.log.warn({ err: error }, 'purging panel sessions failed'));
  };
  housekeeping();
  const housekeepingTimer = setInterval(housekeeping, HOUSEKEEPING_MS);
  housekeepingTimer.unref();
  let closing: Promise<void> | null = null;
  const shutDown = async (): Promise<void> => {
    // 1. /readyz answers 503 at once, while requests are still served for SHUTDOWN_DRAIN_MS, so a
    //    load balancer that checks it stops sending here before the listener closes.
    readiness.shuttingDown = true;
    clearInterval(housekeepingTimer);
    clearTimeout(warmUp);
    if (config.shutdownDrainMs > 0) await wait(config.shutdownDrainMs);
    // 2. Stop accepting; in-flight requests answer (with `Connection: close`), the import runner
    //    finishes the import it runs (app.ts, onClose), the delivery worker sends what it has
    //    started and hands back the rest of its batch (delivery-worker.service.ts) — within
    //    SHUTDOWN_TIMEOUT_MS. Past it, open connections are cut: what they were doing rolls back
    //    with the database connections below (an import stays queued, a lease runs out).
    const finished = Promise.all([app.close(), delivery?.close()]).then(() => true);
    const inTime = await Promise.race([finished, wait(config.shutdownTimeoutMs).then(() => false)]);
    if (!inTime) {
      app.log.warn(
        { shutdownTimeoutMs: config.shutdownTimeoutMs },
        'shutdown: in-flight work did not finish in time; cutting connections, unfinished work is rolled back and done again later',
      );
      app.server.closeAllConnections();
    }
    await metricsListener?.close();
    // 3. The pool closes (bounded: a transaction still open is ended, the database rolls it back).
    await db.close();
  };
  const close = (): Promise<void> => {
    closing ??= shutDown();
    return closing;
  };
  return { app, db, url, metricsUrl: metricsListener?.url ?? null, close };
}

/** From listening to compiling the validators no request has needed yet (the start-up bench's first answer comes well before). */
const VALIDATORS_WARM_UP_AFTER_MS = 1_000;

/** Past SHUTDOWN_TIMEOUT_MS, what closing may still take (the pool's own bound, the metrics listener). */
const EXIT_GRACE_MS = 10_000;

export function closeOnSignals(server: RunningServer, config: Config): void {
  const onSignal = (signal: NodeJS.Signals): void => {
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // The last resort: whatever still runs is cut by the exit, and the database rolls it back.
    setTimeout(
      () => {
        server.app.log.error('shutdown did not end in time; exiting');
        process.exit(1);
      },
      config.shutdownDrainMs + config.shutdownTimeoutMs + EXIT_GRACE_MS,
    ).unref();
    server
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        server.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}
