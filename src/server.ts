// Starts the service: database, migrations, the key verifier, the HTTP app; listens; and closes
// gracefully on SIGINT/SIGTERM (in-flight requests finish, then the database closes).
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { ApiKeys } from './services/api-key.service.ts';
import { connect } from './store/connect.ts';
import type { Db } from './store/db.ts';
import { migrate } from './store/migrate.ts';
import { PostgresDb } from './store/postgres.ts';
import { buildDeliveryWorker } from './worker.ts';
import { purgeExpired } from './services/idempotency.service.ts';
import { purgeExpiredSessions } from './services/account.service.ts';
import { Metrics } from './metrics.ts';
import { listenForMetrics, type MetricsListener } from './metrics-server.ts';
import { outboxDepth } from './store/outbox.repository.ts';

const HOUSEKEEPING_MS = 10 * 60 * 1000;

export interface RunningServer {
  app: FastifyInstance;
  db: Db;
  url: string;
  /** The separate metrics listener's URL (METRICS_PORT), or null. */
  metricsUrl: string | null;
  close: () => Promise<void>;
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(config: Config): Promise<Db> {
  const db = connect(config.database);
  try {
    await migrate(db, config);
    if (db instanceof PostgresDb) await db.listenForKeyChanges();
    return db;
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

export async function startServer(config: Config): Promise<RunningServer> {
  const db = await openDatabase(config);
  const keys = await ApiKeys.open(db, config);
  const metrics = config.metrics.token !== '' || config.metrics.port !== null ? new Metrics() : undefined;
  if (metrics !== undefined) {
    metrics.watchOutbox(() => outboxDepth(db, Date.now()));
    if (db instanceof PostgresDb) metrics.watchPool(() => db.poolUse());
  }
  const app = await buildApp(config, { db, keys, ...(metrics === undefined ? {} : { metrics }) });
  const delivery =
    config.delivery.worker === 'inline' ? buildDeliveryWorker(config, db, keys.secret, app.log, metrics) : null;
  const url = await app.listen({ host: config.host, port: config.port });
  let metricsListener: MetricsListener | null = null;
  if (metrics !== undefined && config.metrics.port !== null) {
    try {
      metricsListener = await listenForMetrics(metrics, config.metrics.host, config.metrics.port, config.metrics.token);
    } catch (error) {
      await app.close();
      await db.close();
      throw error;
    }
  }
  delivery?.worker.start();
  // Idempotency keys are kept 24 hours and panel sessions 7 days; older records are removed here
  // rather than on the request path.
  const housekeeping = (): void => {
    const ctx = { db, now: Date.now };
    purgeExpired(ctx).catch((error: unknown) => app.log.warn({ err: error }, 'purging idempotency keys failed'));
    purgeExpiredSessions(ctx).catch((error: unknown) => app.log.warn({ err: error }, 'purging panel sessions failed'));
  };
  housekeeping();
  const housekeepingTimer = setInterval(housekeeping, HOUSEKEEPING_MS);
  housekeepingTimer.unref();
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    // app.close stops accepting connections and resolves once in-flight requests have answered;
    // the worker finishes the batch it holds; then the database closes.
    clearInterval(housekeepingTimer);
    closing ??= app
      .close()
      .then(() => metricsListener?.close())
      .then(() => delivery?.close())
      .then(() => db.close());
    return closing;
  };
  return { app, db, url, metricsUrl: metricsListener?.url ?? null, close };
}

export function closeOnSignals(server: RunningServer): void {
  const onSignal = (signal: NodeJS.Signals): void => {
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
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
