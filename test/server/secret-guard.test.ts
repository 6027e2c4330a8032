// The secret guards its database: a server and each command, on a database that holds keys and
// sealed bank account numbers, refuse to start with a missing or another secret (saying which
// secret they looked for and where to read on), and serve with the right one; a missing secret
// file is never replaced by a new one. `checkwriter secret rotate` re-seals every number under a
// new secret and makes the database answer to it alone.
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankAccountNumberContext, Vault } from '../../src/domain/sealed.ts';
import { connect } from '../../src/store/connect.ts';
import type { Db } from '../../src/store/db.ts';
import { dialects, freshDatabaseConfig, type TestDialect } from '../support/databases.ts';
import { createKeyWithCli, http, runCli, startServerProcess } from '../support/processes.ts';

const ACCOUNT_NUMBER = '987654321';

/** Starts `serve`; answers the key's status on GET /bankAccounts, or the refusal's output. */
async function serveWith(env: Record<string, string>, key: string): Promise<{ status: number } | { refused: string }> {
  try {
    const server = await startServerProcess(env, { startTimeoutMs: 60_000 });
    try {
      return { status: (await http(`${server.url}/api/v3/bankAccounts`, { key })).status };
    } finally {
      await server.stop();
    }
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

describe.each(dialects())('the secret guards its database (%s)', { timeout: 300_000 }, (dialect: TestDialect) => {
  let env: Record<string, string>;
  let secretFile = '';
  let cleanup: () => Promise<void>;
  let db: Db;
  let key = '';
  let bankAccountId = '';

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    cleanup = fresh.cleanup;
    env = fresh.env;
    secretFile =
      dialect === 'sqlite'
        ? (fresh.env.DATABASE_URL ?? '').slice('sqlite:'.length).replace(/\.db$/, '.secret')
        : (fresh.env.SECRET_FILE ?? '');
    expect((await runCli(['migrate'], env)).code).toBe(0);
    // A new database makes its secret on first use (here: migrate).
    expect(existsSync(secretFile)).toBe(true);
    key = await createKeyWithCli('guard@example.com', env);
    const server = await startServerProcess(env, { startTimeoutMs: 60_000 });
    const bank = await http(`${server.url}/api/v3/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Guarded', routingNumber: '011000015', accountNumber: ACCOUNT_NUMBER }] },
    });
    await server.stop();
    expect(bank.status).toBe(201);
    bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    db = connect(fresh.config);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await cleanup();
  });

  it('a missing secret file: the server and each command refuse, and no new secret is made', async () => {
    const kept = `${secretFile}.kept`;
    renameSync(secretFile, kept);
    try {
      const served = await serveWith(env, key);
      expect(served).toHaveProperty('refused');
      expect((served as { refused: string }).refused).toMatch(/server secret of this database is missing/);
      expect((served as { refused: string }).refused).toContain(secretFile);
      expect((served as { refused: string }).refused).toContain('docs/operations.md');
      for (const command of [['keys', 'list'], ['keys', 'create', '--email', 'other@example.com'], ['worker']]) {
        const run = await runCli(command, env);
        expect(run.code, command.join(' ')).toBe(2);
        expect(run.stderr).toContain(secretFile);
        expect(run.stderr).toContain('docs/operations.md');
        expect(run.stderr).not.toMatch(/\n\s+at /); // a message, not a stack
      }
      expect(existsSync(secretFile)).toBe(false);
    } finally {
      renameSync(kept, secretFile);
    }
  });

  it('another secret (file or KEY_SIGNING_SECRET): refused, saying which secret it looked at', async () => {
    const kept = readFileSync(secretFile);
    writeFileSync(secretFile, `${'w'.repeat(44)}\n`, { mode: 0o600 });
    try {
      const served = await serveWith(env, key);
      expect((served as { refused: string }).refused).toMatch(/does not match this database/);
      expect((served as { refused: string }).refused).toContain(secretFile);
      const run = await runCli(['keys', 'list'], env);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/does not match this database/);
    } finally {
      writeFileSync(secretFile, kept, { mode: 0o600 });
    }
    const byEnv = { ...env, KEY_SIGNING_SECRET: 'e'.repeat(40) };
    const served = await serveWith(byEnv, key);
    expect((served as { refused: string }).refused).toMatch(/KEY_SIGNING_SECRET holds another secret/);
    const run = await runCli(['keys', 'list'], byEnv);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/KEY_SIGNING_SECRET holds another secret/);
    expect(run.stderr).not.toContain('e'.repeat(40));
  });

  it('the right secret serves, and an older database without a check value records it', async () => {
    expect(await serveWith(env, key)).toEqual({ status: 200 });
    expect((await runCli(['keys', 'list'], env)).code).toBe(0);
    await db.run("DELETE FROM settings WHERE name = 'secret_check'");
    expect((await runCli(['keys', 'list'], env)).code).toBe(0);
    expect(await db.get("SELECT value FROM settings WHERE name = 'secret_check'")).toBeDefined();
  });

  it('secret rotate: every number re-sealed under the new secret, which alone opens the database', async () => {
    const oldSecret = readFileSync(secretFile, 'utf8').trim();
    const next = `${secretFile}.next`;
    // A recovery code keyed by the old secret could never be checked again: it is withdrawn.
    const person = await db.get<{ id: string }>('SELECT id FROM people WHERE email = ?', ['guard@example.com']);
    await db.run('INSERT INTO recovery_codes (person_id, code_hash, created_at, used_at) VALUES (?, ?, ?, NULL)', [
      person?.id ?? '',
      'hmac-under-the-old-secret',
      Date.now(),
    ]);
    const rotated = await runCli(['secret', 'rotate', '--new-secret-file', next], env);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toMatch(
      /1 bank account numbers, 0 sandbox messages and 0 authenticator app secrets re-sealed/,
    );
    expect(rotated.stdout).toMatch(/API keys .* no longer work/);
    expect(rotated.stdout).toMatch(/recovery codes were withdrawn from 1 person/);
    expect(await db.get('SELECT person_id FROM recovery_codes', [])).toBeUndefined();
    expect(readFileSync(`${secretFile}.previous`, 'utf8').trim()).toBe(oldSecret);
    const newSecret = readFileSync(secretFile, 'utf8').trim();
    expect(newSecret).not.toBe(oldSecret);

    // The stored number opens with the new secret, not with the old one.
    const row = await db.get<{ account_number: string }>('SELECT account_number FROM bank_accounts WHERE id = ?', [
      bankAccountId,
    ]);
    const context = bankAccountNumberContext(bankAccountId);
    expect(new Vault(Buffer.from(newSecret)).open(row?.account_number ?? '', context)).toBe(ACCOUNT_NUMBER);
    expect(() => new Vault(Buffer.from(oldSecret)).open(row?.account_number ?? '', context)).toThrow();

    // The server serves with the new secret; the old key no longer works, a new one does.
    expect(await serveWith(env, key)).toEqual({ status: 401 });
    const fresh = await createKeyWithCli('guard@example.com', env);
    expect(await serveWith(env, fresh)).toEqual({ status: 200 });

    // The old secret is refused now.
    const current = `${secretFile}.current`;
    copyFileSync(secretFile, current);
    copyFileSync(`${secretFile}.previous`, secretFile);
    try {
      const run = await runCli(['keys', 'list'], env);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/does not match this database/);
    } finally {
      copyFileSync(current, secretFile);
      rmSync(current);
    }
  });
});
