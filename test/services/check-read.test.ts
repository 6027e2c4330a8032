// What GET /checks/{id} reads (services/checks/read.service.ts): the check, its statements and its
// approval rule in one statement; a held check's approvals and a mailed check's mailing only when
// there are some. Both databases. The rule and approvals are written here with plain SQL (not by
// the approvals service), and the statements the read runs are counted on the connection itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/domain/owner.ts';
import { readCheck } from '../../src/services/checks/read.service.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { findCheck } from '../../src/store/checks/checks.repository.ts';
import type { Db } from '../../src/store/db.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

describe.each(dialects())('reading one check (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let principal: Principal;
  let basics: { bankAccountId: string; payeeId: string };
  const email = `check-read-${dialect}@example.com`;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client(email);
    basics = await seedBasics(api);
    principal = await t.principal(email);
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * The service context with a connection that counts the statements run through it. A batched
   * read (readBatched: PostgreSQL outside a transaction) is one statement when it is alone, as it
   * is here: it runs on a pool connection of its own, not through this one's methods.
   */
  function counting(): { ctx: ServiceContext; statements: () => number } {
    const base = t.serviceContext();
    let n = 0;
    const db = new Proxy(base.db, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        const counted =
          prop === 'all' || prop === 'allValues' || prop === 'get' || prop === 'run' || prop === 'readBatched';
        if (!counted || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return (...args: unknown[]) => {
          n += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as Db;
    return { ctx: { ...base, db }, statements: () => n };
  }

  const write = async (): Promise<string> => {
    const made = await api.post('/checks', { checks: [{ ...basics, amount: '42.00', memo: 'read me' }] });
    expect(made.status, made.raw).toBe(201);
    return made.body.data.checks[0].checkId;
  };

  it('a check with no approval rule and no mailing: one statement, the same check findCheck reads', async () => {
    const id = await write();
    expect((await api.post('/checks/print', { checkIds: [id] })).status).toBe(200);
    const { ctx, statements } = counting();
    const read = await readCheck(ctx, principal, id);
    expect(statements()).toBe(1);
    expect(read.check).toEqual(await findCheck(t.database.db, principal, id));
    expect(read.check.statements.map((s) => s.status)).toEqual(['created', 'printed']);
    expect(read.approval.status).toBe('not_required');
    expect(read.mailing).toBeUndefined();
  });

  it("a held check: its rule from the same statement, its current version's approvals from one more", async () => {
    const id = await write();
    const now = Date.now();
    await t.database.db.run(
      `INSERT INTO check_approval_rules (check_id, account_id, env, required, state, approved_count, version,
         created_by_kind, created_by_id, created_by_label, rejected_by, rejected_by_label, rejected_at, reason, created_at)
       VALUES (?, ?, ?, 2, 'pending', 1, 2, 'system', '', 'system', NULL, NULL, NULL, NULL, ?)`,
      [id, principal.accountId, principal.env, now],
    );
    // One approval of an earlier version (an edit sent the check back) and one of the current one.
    for (const [person, label, version, at] of [
      ['per_old', 'Old Approver', 1, now - 1000],
      ['per_new', 'New Approver', 2, now],
    ] as const)
      await t.database.db.run(
        'INSERT INTO check_approvals (check_id, person_id, person_label, version, at) VALUES (?, ?, ?, ?, ?)',
        [id, person, label, version, at],
      );
    const { ctx, statements } = counting();
    const read = await readCheck(ctx, principal, id);
    expect(statements()).toBe(2);
    expect(read.approval).toEqual({
      status: 'pending',
      required: 2,
      approvals: [{ by: 'New Approver', at: now }],
      rejectedBy: null,
      rejectedAt: null,
      reason: null,
    });
    // The rule's row joins one to one: the statements are not repeated.
    expect(read.check.statements.map((s) => s.status)).toEqual(['created']);
  });

  it('another account reads nothing', async () => {
    const id = await write();
    const stranger = `check-read-stranger-${dialect}@example.com`;
    await t.client(stranger);
    await expect(readCheck(t.serviceContext(), await t.principal(stranger), id)).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
