// The SQLite restore drill: `checkwriter backup` taken while clients write
// keyed batches to a running server, restored as docs/operations.md says (the file copied back
// beside its secret file), then served by a new server. Every check acknowledged before the backup
// began is there under the id it was answered with, the API key made before the backup works, and
// the bank account number opens (a positive pay file carries it in full). Restored without the
// secret file, the same copy refuses to start: the secret is part of the backup story.
// The PostgreSQL drill (pgBackRest, point-in-time) needs a cluster of its own: `npm run test:ha`.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyWithCli, http, runCli, type ServerProcess, startServerProcess } from '../support/processes.ts';

const WRITERS = 4;
const CHECKS_PER_BATCH = 20;

interface Batch {
  referenceIds: string[];
  ids: string[] | null;
  ackAt: number;
}

describe('SQLite: online backup under write load, restored to a new server', () => {
  let root: string;
  let env: Record<string, string>;
  let server: ServerProcess;
  let key: string;
  let bankAccountId: string;
  let payeeId: string;
  const accountNumber = '700123456789';

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'checkwriter-backup-'));
    // No KEY_SIGNING_SECRET: the server keeps its secret in the file beside the database
    // (live/checkwriter.secret), as a SQLite deployment does by default.
    env = { DATABASE_URL: `sqlite:${join(root, 'live', 'checkwriter.db')}`, KEY_SIGNING_SECRET: '' };
    const migrated = await runCli(['migrate'], env);
    expect(migrated.code).toBe(0);
    server = await startServerProcess(env);
    key = await createKeyWithCli('backup@example.com', env);
    const api = `${server.url}/api/v3`;
    const bank = await http(`${api}/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Operating', routingNumber: '011000015', accountNumber }] },
    });
    const payee = await http(`${api}/payees`, { method: 'POST', key, body: { payees: [{ name: 'Backup Supplies' }] } });
    bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    payeeId = payee.body.data.payees[0].payeeId;
    // One check printed (issued), so a positive pay file lists it with the full account number.
    const check = await http(`${api}/checks`, {
      method: 'POST',
      key,
      body: { checks: [{ bankAccountId, payeeId, amount: '10.00', referenceId: 'printed' }] },
    });
    const printed = await fetch(`${api}/checks/print`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checkIds: [check.body.data.checks[0].checkId] }),
    });
    expect(printed.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  async function writer(n: number, until: () => boolean, batches: Batch[]): Promise<void> {
    for (let seq = 0; !until(); seq += 1) {
      const referenceIds = Array.from({ length: CHECKS_PER_BATCH }, (_, i) => `w${n}-${seq}-${i}`);
      const batch: Batch = { referenceIds, ids: null, ackAt: 0 };
      batches.push(batch);
      const reply = await http(`${server.url}/api/v3/checks`, {
        method: 'POST',
        key,
        body: { checks: referenceIds.map((referenceId) => ({ bankAccountId, payeeId, amount: '1.00', referenceId })) },
      });
      if (reply.status === 201) {
        batch.ids = reply.body.data.checks.map((c: { checkId: string }) => c.checkId);
        batch.ackAt = Date.now();
      }
    }
  }

  async function serveCopy(dir: string, withSecret: boolean): Promise<ServerProcess> {
    mkdirSync(join(root, dir));
    copyFileSync(join(root, 'backup.db'), join(root, dir, 'checkwriter.db'));
    if (withSecret)
      copyFileSync(join(root, 'secret-store', 'checkwriter.secret'), join(root, dir, 'checkwriter.secret'));
    return startServerProcess({ DATABASE_URL: `sqlite:${join(root, dir, 'checkwriter.db')}`, KEY_SIGNING_SECRET: '' });
  }

  async function referenceIdsOn(url: string): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (let page = 1; ; page += 1) {
      const reply = await http(`${url}/api/v3/checks?perPage=500&page=${page}`, { key });
      expect(reply.status).toBe(200);
      for (const c of reply.body.data.checks) found.set(c.referenceId, c.checkId);
      if (reply.body.data.checks.length < 500) return found;
    }
  }

  it('finds every check acknowledged before the backup, the bank account number and the API key', async () => {
    const batches: Batch[] = [];
    let stop = false;
    const writers = Array.from({ length: WRITERS }, (_, n) => writer(n, () => stop, batches));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const backupBegan = Date.now();
    const backup = await runCli(['backup', '--out', join(root, 'backup.db')], env);
    const backupEnded = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 500));
    stop = true;
    await Promise.all(writers);
    expect(backup.code, backup.stderr).toBe(0);
    // It names the secret file as what it did not copy.
    expect(backup.stderr).toContain(join(root, 'live', 'checkwriter.secret'));
    const before = batches.filter((b) => b.ids !== null && b.ackAt < backupBegan);
    const after = batches.filter((b) => b.ids !== null && b.ackAt > backupEnded);
    // The writers were writing on both sides of the backup.
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);

    // The operator's secret store holds the secret file (docs/operations.md, "Backups").
    mkdirSync(join(root, 'secret-store'));
    copyFileSync(join(root, 'live', 'checkwriter.secret'), join(root, 'secret-store', 'checkwriter.secret'));
    await server.stop();

    const restored = await serveCopy('restored', true);
    try {
      const found = await referenceIdsOn(restored.url);
      const missing = before.flatMap((b) => b.referenceIds.filter((r, i) => found.get(r) !== b.ids?.[i]));
      expect(missing).toEqual([]);
      expect(found.size).toBeGreaterThan(before.length * CHECKS_PER_BATCH);
      const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      const file = await http(`${restored.url}/api/v3/positive-pay-exports`, {
        method: 'POST',
        key,
        body: { bankAccountId, from: day(-1), to: day(1), format: 'csv' },
      });
      expect(file.status).toBe(201);
      expect(file.body.data.file.content.split('\r\n')[1]).toMatch(new RegExp(`^${accountNumber},`));
    } finally {
      await restored.stop();
    }

    // The same copy without its secret file: the server refuses to start, naming the file it
    // looked for, and makes no new secret (which would have left the key and the number unusable).
    await expect(serveCopy('without-secret', false)).rejects.toThrow(
      new RegExp(
        `server secret of this database is missing: no file at ${join(root, 'without-secret', 'checkwriter.secret')}`,
      ),
    );
    expect(existsSync(join(root, 'without-secret', 'checkwriter.secret'))).toBe(false);
  }, 150_000);
});

describe('checkwriter backup: what it refuses', () => {
  it('points PostgreSQL at pgBackRest, and never overwrites a file', async () => {
    const onPostgres = await runCli(['backup', '--out', join(tmpdir(), 'never-written.db')], {
      DATABASE_URL: 'postgres://checkwriter@127.0.0.1:1/none',
      KEY_SIGNING_SECRET: 'a-secret-of-at-least-thirty-two-characters',
    });
    expect(onPostgres.code).toBe(2);
    expect(onPostgres.stderr).toContain('pgBackRest');

    const dir = mkdtempSync(join(tmpdir(), 'checkwriter-backup-'));
    try {
      const env = { DATABASE_URL: `sqlite:${join(dir, 'checkwriter.db')}`, KEY_SIGNING_SECRET: '' };
      expect((await runCli(['migrate'], env)).code).toBe(0);
      const first = await runCli(['backup', '--out', join(dir, 'copy.db')], env);
      expect(first.code, first.stderr).toBe(0);
      const again = await runCli(['backup', '--out', join(dir, 'copy.db')], env);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('exists');
      expect((await runCli(['backup'], env)).stderr).toContain('--out is required');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
