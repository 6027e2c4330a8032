// An in-process app on a fresh database, driven through Fastify's inject (no port), with helpers
// to make accounts and keys and to call the API as a client would.
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Environment, Principal } from '../../src/domain/owner.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { ApiKeys, ensureAccount } from '../../src/services/api-key.service.ts';
import type { HeavyWork } from '../../src/heavy-work/heavy-work.ts';
import { openHeavyWork } from '../../src/heavy-work/open-heavy-work.ts';
import { freshDatabase, type TestDatabase, type TestDialect } from './databases.ts';
import { systemActor } from '../../src/domain/actor.ts';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: JSON read back in tests, walked freely by the assertions
  body: any;
  raw: string;
}

export interface Client {
  key: string;
  get(url: string): Promise<Reply>;
  post(url: string, body?: unknown): Promise<Reply>;
  put(url: string, body?: unknown): Promise<Reply>;
  delete(url: string): Promise<Reply>;
}

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  keys: ApiKeys;
  config: Config;
  /** The app's heavy work: the real worker pool (HEAVY_WORK_* in `env` shape it), as a server runs it. */
  heavyWork: HeavyWork;
  /** A client with a fresh key for `email` (account created when new). */
  client(email: string, options?: { env?: Environment; verified?: boolean }): Promise<Client>;
  /** What the services take, for tests that call them directly (`now`: the clock by default). */
  serviceContext(now?: () => number): ServiceContext;
  /** The principal of `email`'s account (made by `client`) in `env`, as the services take it. */
  principal(email: string, env?: Environment): Promise<Principal>;
  close(): Promise<void>;
}

export const BASE = '/api/v3';

/** An injected response as tests read it: the status, headers, raw text and the JSON it holds (or null). */
export function replyOf(response: { statusCode: number; headers: Reply['headers']; body: string }): Reply {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    parsed = null;
  }
  return { status: response.statusCode, headers: response.headers, body: parsed, raw: response.body };
}

export function clientFor(app: FastifyInstance, key: string): Client {
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<Reply> => {
    const response = await app.inject({
      method,
      url: `${BASE}${url}`,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return replyOf(response);
  };
  return {
    key,
    get: (url) => call('GET', url),
    post: (url, body) => call('POST', url, body),
    put: (url, body) => call('PUT', url, body),
    delete: (url) => call('DELETE', url),
  };
}

export async function startTestApp(dialect: TestDialect, env: Record<string, string> = {}): Promise<TestApp> {
  const database = await freshDatabase(dialect);
  // The database's own environment: the server secret is kept where a server on it would keep it.
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_KEY: '0',
    FAILED_REQUEST_LIMIT_PER_MINUTE: '0',
    // Tests about something else sign owners in with a password alone; the second factor's own
    // tests turn the requirement on (test/panel/second-factor*.test.ts).
    SECOND_FACTOR_REQUIRED: 'false',
    ...database.env,
    ...env,
  });
  const keys = await ApiKeys.open(database.db, config);
  const heavyWork = openHeavyWork(config.heavyWork);
  const app = await buildApp(config, { db: database.db, keys, heavyWork });
  await app.ready();
  return {
    app,
    database,
    keys,
    config,
    heavyWork,
    client: async (email, options = {}) => {
      const { account } = await ensureAccount(database.db, {
        email,
        verified: options.verified ?? true,
        phone: '+14155552671',
      });
      const { key } = await keys.create(account.id, options.env ?? 'test', 'test key');
      return clientFor(app, key);
    },
    serviceContext: (now = Date.now) => ({
      db: database.db,
      config,
      now,
      secret: keys.secret,
      vault: keys.vault,
      heavyWork,
    }),
    principal: async (email, env = 'test') => {
      const account = await database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [email]);
      if (account === undefined) throw new Error(`no account for ${email}`);
      return { accountId: account.id, env, keyId: '', timeZone: 'UTC', actor: systemActor('test') };
    },
    close: async () => {
      await app.close();
      await heavyWork.close();
      await database.drop();
    },
  };
}

/**
 * A bank account and a payee, the least a check needs. Seeded twice for one account and
 * environment, the bank account is the same real account: the second create is answered as a
 * duplicate with the existing id (docs/api-notes.md, "Duplicates"), which is used, as a client would.
 */
export async function seedBasics(
  client: Client,
  payee: Record<string, string> = {},
): Promise<{ bankAccountId: string; payeeId: string }> {
  const bank = await client.post('/bankAccounts', {
    bankAccounts: [
      { name: 'Operating', bankName: 'First Test Bank', routingNumber: '011000015', accountNumber: '123456789' },
    ],
  });
  const existing: unknown = bank.status === 422 ? bank.body.bankAccountId : undefined;
  if (bank.status !== 201 && typeof existing !== 'string') throw new Error(`bank account: ${bank.status} ${bank.raw}`);
  const created = await client.post('/payees', {
    payees: [{ name: 'Acme Supplies', email: 'ap@acme.test', phone: '+1 415 555 2671', ...payee }],
  });
  if (created.status !== 201) throw new Error(`payee: ${created.status} ${created.raw}`);
  const bankAccountId = typeof existing === 'string' ? existing : bank.body.data.bankAccounts[0].bankAccountId;
  return { bankAccountId, payeeId: created.body.data.payees[0].payeeId };
}
