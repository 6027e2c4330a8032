// The framework baseline: plain Fastify, one route GET /api/v3/checks/:id, no plugins, hooks,
// schemas or logger. Each request runs the same primary-key lookup checkwriter's findCheck runs
// (the check joined to its bank account, payee and statements) on the same SQLite file or
// PostgreSQL schema, then answers the bytes the real server sent for that check. The Bearer header
// arrives but is not checked. checkwriter ÷ this = what our own code adds on top of Fastify and the
// driver. Started by processes.ts with fork(); the setup arrives over IPC.
import Fastify from 'fastify';
import pg from 'pg';
import { Database } from '../src/store/sqlite-driver.ts';
import { FIND_CHECK } from './find-check-sql.ts';

export interface BareFastifySetup {
  body: string;
  contentType: string;
  accountId: string;
  env: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string | null };
}

type Lookup = (id: string) => Promise<number>;

function sqliteLookup(file: string, accountId: string, env: string): Lookup {
  const db = new Database(file, { timeout: 5000 });
  const statement = db.prepare(FIND_CHECK);
  return async (id) => statement.all(id, accountId, env).length;
}

function postgresLookup(url: string, schema: string | null, accountId: string, env: string): Lookup {
  // Same pool size and search_path as the server's PostgresDb, and a named (prepared) statement.
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema === null ? {} : { options: `-c search_path=${schema}` }),
  });
  pool.on('error', () => undefined);
  let index = 0;
  const text = FIND_CHECK.replace(/\?/g, () => `$${++index}`);
  return async (id) =>
    (await pool.query({ name: 'bench_find_check', text, values: [id, accountId, env] })).rowCount ?? 0;
}

function isSetup(value: unknown): value is BareFastifySetup {
  const v = value as BareFastifySetup;
  return typeof v === 'object' && v !== null && typeof v.body === 'string' && typeof v.database === 'object';
}

process.once('message', (message: unknown) => {
  if (!isSetup(message)) throw new Error('bare-fastify: expected a BareFastifySetup');
  const { database, accountId, env } = message;
  const lookup =
    database.kind === 'sqlite'
      ? sqliteLookup(database.file, accountId, env)
      : postgresLookup(database.url, database.schema, accountId, env);
  const body = Buffer.from(message.body, 'utf8');
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string } }>('/api/v3/checks/:id', async (request, reply) => {
    // A miss must not look like a fast answer: the benchmark counts anything but 2xx as broken.
    if ((await lookup(request.params.id)) === 0) return reply.code(404).send();
    // The same constant request id as the raw baseline (see raw-server.ts).
    return reply
      .header('content-type', message.contentType)
      .header('x-request-id', '00000000-0000-4000-8000-000000000000')
      .send(body);
  });
  app.listen({ port: 0, host: '127.0.0.1' }).then(
    () => {
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('bare-fastify: no TCP address');
      process.send?.({ port: address.port });
    },
    (error: unknown) => {
      throw error;
    },
  );
  process.once('SIGTERM', () => {
    app.server.closeAllConnections();
    void app.close().then(() => process.exit(0));
  });
});
