import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { ApiKeys } from '../../src/services/api-key.service.ts';
import { freshDatabase, freshDatabaseConfig, type TestDatabase } from '../support/databases.ts';
import { startServerProcess } from '../support/processes.ts';

describe('graceful shutdown', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase('sqlite');
  });
  afterAll(() => database.drop());

  it('finishes an in-flight request before closing, and refuses new connections after', async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', ...database.env });
    const app = await buildApp(config, { db: database.db, keys: await ApiKeys.open(database.db, config) });
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    app.get('/slow', async () => {
      started();
      await gate;
      return { done: true };
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const inFlight = fetch(`${url}/slow`);
    await handlerStarted;
    const closed = app.close();
    await new Promise((r) => setTimeout(r, 50));
    release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });
    await closed;
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('the server process exits 0 on SIGTERM', async () => {
    const fresh = await freshDatabaseConfig('sqlite');
    try {
      const server = await startServerProcess(fresh.env);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(await server.stop('SIGTERM')).toBe(0);
    } finally {
      await fresh.cleanup();
    }
  });
});
