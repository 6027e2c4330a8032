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
import { buildDeliveryWorker } from './delivery/setup.ts';
import { purgeExpired } from './services/idempotency.service.ts';
import { purgeExpiredSessions } from './services/account.service.ts';

const HOUSEKEEPING_MS = 10 * 60 * 1000;

export interface RunningServer {
  app: FastifyInstance;
  db: Db;
  url: string;
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
  const app = await buildApp(config, { db, keys });
  const delivery = config.delivery.worker === 'inline' ? buildDeliveryWorker(config, db, keys.secret, app.log) : null;
  const url = await app.listen({ host: config.host, port: config.port });
  delivery?.worker.start();
  // Idempotency keys are kept 24 hours and panel sessions 7 days; older records are removed here
  // rather than on the request path.
  const housekeeping = (): void => {
    const ctx = { db, config, now: Date.now, secret: keys.secret, vault: keys.vault };
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
      .then(() => delivery?.close())
      .then(() => db.close());
    return closing;
  };
  return { app, db, url, close };
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
