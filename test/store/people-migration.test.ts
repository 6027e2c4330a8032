// Migration 026 on a database as release 025 left it: each account becomes a company whose one
// person (its email and password) is the owner, and its open browser sessions become that
// person's, so an upgrade signs nobody out and every account keeps its way in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/store/connect.ts';
import type { Db } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';

describe.each(dialects())('migration 026: people in companies (%s)', (dialect) => {
  let db: Db;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    cleanup = fresh.cleanup;
    db = connect(fresh.config);
    expect((await migrate(db, null, { through: 25 })).at(-1)).toBe(25);
    // Two accounts as release 025 stored them: one signed up with a password (and a session),
    // one made by `checkwriter keys create` (no password), its email in mixed case.
    await db.run(
      `INSERT INTO accounts (id, company, email, phone, time_zone, created_at, password_hash)
       VALUES ('acct_01JAAAAAAAAAAAAAAAAAAAAAAA', 'Acme Payables', 'owner@acme.example', '+14155552671', 'UTC', 1000, 'scrypt$stored'),
              ('acct_01JBBBBBBBBBBBBBBBBBBBBBBB', '', 'Keys@Made.Example', '', 'UTC', 2000, NULL)`,
    );
    await db.run(
      `INSERT INTO panel_sessions (id_hash, account_id, created_at, expires_at)
       VALUES ('hash-of-open-session', 'acct_01JAAAAAAAAAAAAAAAAAAAAAAA', 5000, 999999999)`,
    );
    expect((await migrate(db, null)).at(-1)).toBeGreaterThanOrEqual(26);
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  it('gives every account one person, its owner, with its email and password', async () => {
    const people = await db.all<{ id: string; email: string; password_hash: string | null }>(
      'SELECT id, email, password_hash FROM people ORDER BY id',
    );
    expect(people).toEqual([
      { id: 'per_01JAAAAAAAAAAAAAAAAAAAAAAA', email: 'owner@acme.example', password_hash: 'scrypt$stored' },
      { id: 'per_01JBBBBBBBBBBBBBBBBBBBBBBB', email: 'keys@made.example', password_hash: null },
    ]);
    const members = await db.all<{ account_id: string; person_id: string; role: string; approves: number }>(
      'SELECT account_id, person_id, role, approves FROM memberships ORDER BY account_id',
    );
    expect(members.map((m) => [m.account_id, m.person_id, m.role, Number(m.approves)])).toEqual([
      ['acct_01JAAAAAAAAAAAAAAAAAAAAAAA', 'per_01JAAAAAAAAAAAAAAAAAAAAAAA', 'owner', 0],
      ['acct_01JBBBBBBBBBBBBBBBBBBBBBBB', 'per_01JBBBBBBBBBBBBBBBBBBBBBBB', 'owner', 0],
    ]);
  });

  it("keeps an open session, now the owner's", async () => {
    const session = await db.get<{ person_id: string; last_seen_at: number | string }>(
      'SELECT person_id, last_seen_at FROM panel_sessions WHERE id_hash = ?',
      ['hash-of-open-session'],
    );
    expect(session?.person_id).toBe('per_01JAAAAAAAAAAAAAAAAAAAAAAA');
    expect(Number(session?.last_seen_at)).toBe(5000);
  });

  it('refuses a second person with the same email and a membership for a person who does not exist', async () => {
    await expect(
      db.run("INSERT INTO people (id, email, created_at) VALUES ('per_X', 'owner@acme.example', 1)"),
    ).rejects.toThrow();
    await expect(
      db.run(
        "INSERT INTO memberships (account_id, person_id, role, created_at) VALUES ('acct_01JAAAAAAAAAAAAAAAAAAAAAAA', 'per_nobody', 'viewer', 1)",
      ),
    ).rejects.toThrow();
  });
});
