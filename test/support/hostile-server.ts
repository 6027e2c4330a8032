// What every hostile-input file of test/server/ starts with: a fresh database, a real server
// process on it, an API key made by the command line as a user would, and, where the file measures
// responsiveness, a /healthz prober in its own thread (responsiveness.ts). One start a file and
// database, shared by all its rows.
import { expect } from 'vitest';
import { freshDatabase, type TestDatabase, type TestDialect } from './databases.ts';
import { createKeyWithCli, http, type ServerProcess, startServerProcess } from './processes.ts';
import { HealthProbe } from './responsiveness.ts';

export interface HostileServer {
  server: ServerProcess;
  /** `${server.url}/api/v3` */
  api: string;
  key: string;
  /** The server's database, for reading what was (not) stored. */
  database: TestDatabase;
  /** Present when started with `probe: true`. */
  probe: HealthProbe | undefined;
  /** A new bank account of the key's account (each its own number: the same number twice is one account). */
  bankAccount: (name?: string) => Promise<string>;
  close: () => Promise<void>;
}

export async function startHostileServer(
  dialect: TestDialect,
  email: string,
  options: { env?: Record<string, string>; probe?: boolean } = {},
): Promise<HostileServer> {
  const database = await freshDatabase(dialect);
  const server = await startServerProcess({ ...database.env, ...options.env });
  const key = await createKeyWithCli(email, database.env);
  const api = `${server.url}/api/v3`;
  const probe = options.probe === true ? await HealthProbe.start(server.url) : undefined;
  let accounts = 0;
  const bankAccount = async (name = 'Operating'): Promise<string> => {
    accounts += 1;
    const bank = await http(`${api}/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name, routingNumber: '011000015', accountNumber: String(123456700 + accounts) }] },
    });
    expect(bank.status, JSON.stringify(bank.body)).toBe(201);
    return bank.body.data.bankAccounts[0].bankAccountId;
  };
  const close = async (): Promise<void> => {
    await probe?.close();
    await server.stop();
    await database.drop();
  };
  return { server, api, key, database, probe, bankAccount, close };
}
