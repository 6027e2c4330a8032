// GET /checks/{id}'s read shared by concurrent requests (findCheckToRead through readBatched,
// src/store/postgres.ts): on PostgreSQL, reads asked for before a batch is sent go in one
// statement, each matched with its own owner, and a read never joins a statement already sent,
// so it sees every write committed before it was asked. SQLite reads each check alone; the
// owner checks run there too. The statements are watched on the pool itself: every connection it
// hands out is wrapped, which also lets a test hold connections back (a busy pool) or hold a sent
// statement's answer (a batch still at the database).
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Owner } from '../../src/domain/owner.ts';
import { type CheckToRead, findCheckToRead } from '../../src/store/checks/checks.repository.ts';
import { type Db, transactionJoinedByCalls } from '../../src/store/db.ts';
import { BATCHES_IN_FLIGHT, MAX_BATCH_KEYS } from '../../src/store/postgres.ts';
import { type Client, seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { until } from '../support/until.ts';

/** What identifies the check read's statements (alone or batched): the approval rule's join. */
const CHECK_READ = 'LEFT JOIN check_approval_rules r';

interface Held {
  /** Resolves once the statement's answer has come back from the database (and is held). */
  readonly answered: Promise<void>;
  release(): void;
}

/** The statements run on `db`'s pool, and levers on its connections and answers. */
interface PoolWatch {
  readonly statements: { text: string; values: unknown[] }[];
  /** The check reads sent so far. */
  checkReads(): { text: string; values: unknown[] }[];
  /** Connections asked for from now on wait until `openGate` (every one busy elsewhere). */
  closeGate(): void;
  openGate(): void;
  /** The connections handed out and waiting at the closed gate. */
  atGate(): pg.PoolClient[];
  /** Holds the answer of the next check read sent, until released. */
  holdNextCheckRead(): Held;
}

type Callback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

function watchPool(db: Db): PoolWatch {
  // PostgresDb keeps its pool private; the test reaches it to watch what really reaches the database.
  const pool = (db as unknown as { pool: pg.Pool }).pool;
  const statements: { text: string; values: unknown[] }[] = [];
  const holds: { arrived: () => void; released: Promise<void> }[] = [];
  const wrapped = new WeakSet<pg.PoolClient>();
  let gate: { opened: Promise<void>; open: () => void } | null = null;
  const atGate = new Set<pg.PoolClient>();

  const wrap = (client: pg.PoolClient): void => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const config = args[0] as string | { text: string; values?: unknown[] };
      const text = typeof config === 'string' ? config : config.text;
      const values = typeof config === 'string' ? ((args[1] as unknown[] | undefined) ?? []) : (config.values ?? []);
      statements.push({ text, values });
      const result = query(...args);
      const hold = text.includes(CHECK_READ) && result instanceof Promise ? holds.shift() : undefined;
      if (hold === undefined) return result;
      return (result as Promise<unknown>).then(async (answer) => {
        hold.arrived();
        await hold.released;
        return answer;
      });
    };
  };

  const connect = pool.connect.bind(pool) as (callback?: Callback) => Promise<pg.PoolClient> | undefined;
  (pool as unknown as { connect: (callback?: Callback) => unknown }).connect = (callback?: Callback) => {
    const waiting = gate?.opened;
    if (callback === undefined)
      return (connect() as Promise<pg.PoolClient>).then(async (client) => {
        wrap(client);
        await waiting;
        return client;
      });
    connect((error, client, done) => {
      if (client !== undefined) wrap(client);
      // An open gate hands the connection over at once, as the pool does.
      if (waiting === undefined) return callback(error, client, done);
      if (client !== undefined) atGate.add(client);
      void waiting.then(() => {
        if (client !== undefined) atGate.delete(client);
        callback(error, client, done);
      });
    });
    return undefined;
  };

  return {
    statements,
    checkReads: () => statements.filter((s) => s.text.includes(CHECK_READ)),
    atGate: () => [...atGate],
    closeGate: () => {
      let open = (): void => undefined;
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      gate = { opened, open };
    },
    openGate: () => {
      gate?.open();
      gate = null;
    },
    holdNextCheckRead: () => {
      let arrived = (): void => undefined;
      let release = (): void => undefined;
      const answered = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.push({ arrived, released });
      return { answered, release };
    },
  };
}

/** `read` as one statement of its own, inside a transaction (where reads are never batched). */
function aloneInTransaction(db: Db, owner: Owner, id: string): Promise<CheckToRead | undefined> {
  return db.transaction((tx) => findCheckToRead(tx, owner, id));
}

describe.each(dialects())('concurrent check reads (%s)', (dialect) => {
  let t: TestApp;
  let a: Client;
  let b: Client;
  let ownerA: Owner;
  let ownerB: Owner;
  let checkA = '';
  let checkA2 = '';
  let checkB = '';

  const write = async (client: Client, memo: string): Promise<string> => {
    const basics = await seedBasics(client);
    const made = await client.post('/checks', { checks: [{ ...basics, amount: '12.34', memo }] });
    expect(made.status, made.raw).toBe(201);
    return made.body.data.checks[0].checkId;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    a = await t.client(`batches-a-${dialect}@example.com`);
    b = await t.client(`batches-b-${dialect}@example.com`);
    ownerA = await t.principal(`batches-a-${dialect}@example.com`);
    ownerB = await t.principal(`batches-b-${dialect}@example.com`);
    checkA = await write(a, 'for A');
    checkA2 = await write(a, 'for A too');
    checkB = await write(b, 'for B');
    // Two statements on A's second check, and an approval rule: the batch groups each check's rows.
    expect((await a.post('/checks/print', { checkIds: [checkA2] })).status).toBe(200);
    await t.database.db.run(
      `INSERT INTO check_approval_rules (check_id, account_id, env, required, state, approved_count, version,
         created_by_kind, created_by_id, created_by_label, rejected_by, rejected_by_label, rejected_at, reason, created_at)
       VALUES (?, ?, ?, 2, 'pending', 0, 1, 'system', '', 'system', NULL, NULL, NULL, NULL, ?)`,
      [checkA2, ownerA.accountId, ownerA.env, Date.now()],
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Keys of both accounts, their own checks and each other's, and ids no check has. */
  const mixedReads = (): { owner: Owner; id: string; finds: string | null }[] => [
    { owner: ownerA, id: checkA, finds: checkA },
    { owner: ownerB, id: checkB, finds: checkB },
    { owner: ownerA, id: checkB, finds: null },
    { owner: ownerB, id: checkA, finds: null },
    { owner: ownerA, id: checkA2, finds: checkA2 },
    // The same account in its other environment sees none of its test checks.
    { owner: { ...ownerA, env: 'live' }, id: checkA, finds: null },
    { owner: ownerA, id: checkA, finds: checkA },
    // Text the batch's arrays must carry as it is (quotes, backslashes, braces, commas, NULL).
    { owner: ownerA, id: `${checkA}", "x\\"}{,NULL`, finds: null },
    { owner: ownerB, id: 'NULL', finds: null },
    { owner: ownerB, id: 'chk_é✓', finds: null },
  ];

  it('each read gets its own check, and nothing of another account or environment', async () => {
    const reads = mixedReads();
    const answers = await Promise.all(reads.map((r) => findCheckToRead(t.database.db, r.owner, r.id)));
    for (const [i, r] of reads.entries()) {
      const answer = answers[i];
      expect(answer?.check.id ?? null, `read ${i}`).toBe(r.finds);
      // The same rows as the read alone, statements and rule included.
      if (r.finds !== null) expect(answer).toEqual(await aloneInTransaction(t.database.db, r.owner, r.id));
    }
    expect(answers[4]?.check.statements.map((s) => s.status)).toEqual(['created', 'printed']);
    expect(answers[4]?.rule).toMatchObject({ state: 'pending', required: 2, version: 1 });
    expect(answers[0]?.rule).toBeNull();
    // Two requests for one check get objects of their own.
    expect(answers[6]).toEqual(answers[0]);
    expect(answers[6]).not.toBe(answers[0]);
    expect(answers[6]?.check).not.toBe(answers[0]?.check);
  });

  it('over HTTP: concurrent GETs of two accounts each answer their own check, and 404 for the other', async () => {
    const gets = [
      ...Array.from({ length: 10 }, () => ({ client: a, id: checkA, status: 200 })),
      ...Array.from({ length: 10 }, () => ({ client: b, id: checkB, status: 200 })),
      ...Array.from({ length: 5 }, () => ({ client: a, id: checkB, status: 404 })),
      ...Array.from({ length: 5 }, () => ({ client: b, id: checkA, status: 404 })),
    ];
    const replies = await Promise.all(gets.map((g) => g.client.get(`/checks/${g.id}`)));
    for (const [i, g] of gets.entries()) {
      const reply = replies[i];
      expect(reply?.status, reply?.raw).toBe(g.status);
      if (g.status === 200) expect(reply?.body.data.checkId).toBe(g.id);
    }
  });
});

describe.each(dialects().filter((d) => d === 'postgres'))('batched check reads on PostgreSQL (%s)', (dialect) => {
  let t: TestApp;
  let a: Client;
  let b: Client;
  let ownerA: Owner;
  let ownerB: Owner;
  let basicsA: { bankAccountId: string; payeeId: string };
  let checkA = '';
  let checkB = '';
  let watch: PoolWatch;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    a = await t.client('batched-a@example.com');
    b = await t.client('batched-b@example.com');
    ownerA = await t.principal('batched-a@example.com');
    ownerB = await t.principal('batched-b@example.com');
    basicsA = await seedBasics(a);
    const basicsB = await seedBasics(b);
    const madeA = await a.post('/checks', { checks: [{ ...basicsA, amount: '10.00', memo: 'before' }] });
    const madeB = await b.post('/checks', { checks: [{ ...basicsB, amount: '20.00', memo: 'of B' }] });
    checkA = madeA.body.data.checks[0].checkId;
    checkB = madeB.body.data.checks[0].checkId;
    watch = watchPool(t.database.db);
  });
  afterAll(async () => {
    watch?.openGate();
    await t?.close();
  });

  it('N reads asked for while the pool is busy go to the database as one statement', async () => {
    const keys = [
      ...Array.from({ length: 12 }, () => ({ owner: ownerA, id: checkA })),
      ...Array.from({ length: 12 }, () => ({ owner: ownerB, id: checkB })),
      { owner: ownerA, id: checkB },
      { owner: ownerB, id: checkA },
    ];
    const before = watch.checkReads().length;
    watch.closeGate();
    const reads = keys.map((k) => findCheckToRead(t.database.db, k.owner, k.id));
    watch.openGate();
    const answers = await Promise.all(reads);
    const sent = watch.checkReads().slice(before);
    expect(sent).toHaveLength(1);
    // One statement for all 26 reads; the same check asked for twelve times is looked up once.
    expect(sent[0]?.text).toContain('unnest(');
    expect(sent[0]?.values).toEqual([
      `{"${checkA}","${checkB}","${checkB}","${checkA}"}`,
      `{"${ownerA.accountId}","${ownerB.accountId}","${ownerA.accountId}","${ownerB.accountId}"}`,
      '{"test","test","test","test"}',
    ]);
    expect(answers.map((x) => x?.check.id ?? null)).toEqual([
      ...Array.from({ length: 12 }, () => checkA),
      ...Array.from({ length: 12 }, () => checkB),
      null,
      null,
    ]);
    expect(answers[0]?.check.memo).toBe('before');
    expect(answers[12]?.check.memo).toBe('of B');
  });

  it('a read asked for after a commit sees it, while a batch sent before the commit is still at the database', async () => {
    // A read whose statement is sent now; its answer (the check before the edit) is held back.
    const held = watch.holdNextCheckRead();
    const early = findCheckToRead(t.database.db, ownerA, checkA);
    await held.answered;
    // The edit commits (acknowledged) while that batch is still out.
    const edited = await a.put(`/checks/${checkA}`, { memo: 'after' });
    expect(edited.status, edited.raw).toBe(200);
    // Asked for now, the read must not ride on the statement already sent: it goes in one of its
    // own, sent now or when the batch out answers (BATCHES_IN_FLIGHT), and sees the edit.
    const sentBefore = watch.checkReads().length;
    const late = findCheckToRead(t.database.db, ownerA, checkA);
    await new Promise((resolve) => setTimeout(resolve, 20));
    held.release();
    expect((await late)?.check.memo).toBe('after');
    expect(watch.checkReads().length).toBe(sentBefore + 1);
    // The early read was answered from before the edit: the batch really predated the commit.
    expect((await early)?.check.memo).toBe('before');
  });

  /**
   * As many batches out as may be (BATCHES_IN_FLIGHT), each a read of `id` whose answer has come
   * back and is held: the next read opens a batch of its own, which must wait for a slot.
   */
  const takeEverySlot = async (
    owner: Owner,
    id: string,
  ): Promise<{ holds: Held[]; early: Promise<CheckToRead | undefined>[] }> => {
    const holds: Held[] = [];
    const early: Promise<CheckToRead | undefined>[] = [];
    for (let i = 0; i < BATCHES_IN_FLIGHT; i += 1) {
      const held = watch.holdNextCheckRead();
      holds.push(held);
      early.push(findCheckToRead(t.database.db, owner, id));
      await held.answered;
    }
    return { holds, early };
  };

  it('with every batch slot taken, the next read waits for a slot and is sent after the commit', async () => {
    await a.put(`/checks/${checkA}`, { memo: 'first' });
    const { holds, early } = await takeEverySlot(ownerA, checkA);
    const edited = await a.put(`/checks/${checkA}`, { memo: 'second' });
    expect(edited.status, edited.raw).toBe(200);
    const sentBefore = watch.checkReads().length;
    const late = findCheckToRead(t.database.db, ownerA, checkA);
    // Not sent while every slot is out (looked at in this turn, well before BATCH_STALL_MS); and
    // it joined nothing already sent.
    await new Promise((resolve) => setImmediate(resolve));
    expect(watch.checkReads().length).toBe(sentBefore);
    for (const h of holds) h.release();
    expect((await late)?.check.memo).toBe('second');
    expect(watch.checkReads().length).toBe(sentBefore + 1);
    expect((await early[0])?.check.memo).toBe('first');
  });

  it('a batch out that stalls holds the next one back only for BATCH_STALL_MS: it is then sent on its own connection', async () => {
    await a.put(`/checks/${checkA}`, { memo: 'stalled' });
    // Every slot taken by a batch whose answer does not come until the end of the test.
    const { holds, early } = await takeEverySlot(ownerB, checkB);
    const edited = await a.put(`/checks/${checkA}`, { memo: 'past the stall' });
    expect(edited.status, edited.raw).toBe(200);
    const sentBefore = watch.checkReads().length;
    // Two reads asked for while the slots are out share the batch the guard sends.
    const late = [findCheckToRead(t.database.db, ownerA, checkA), findCheckToRead(t.database.db, ownerB, checkB)];
    const answers = await Promise.all(late);
    expect(answers[0]?.check.memo).toBe('past the stall');
    expect(answers[1]?.check.id).toBe(checkB);
    expect(watch.checkReads().length).toBe(sentBefore + 1);
    // The stalled batch is still out, and answers when it comes back.
    for (const h of holds) h.release();
    expect((await early[0])?.check.id).toBe(checkB);
  });

  it('a batch that reaches MAX_BATCH_KEYS is sent at once, and the next read opens a batch of its own', async () => {
    const db = t.database.db;
    const { holds, early } = await takeEverySlot(ownerA, checkA);
    const sentBefore = watch.checkReads().length;
    const keys = Array.from({ length: MAX_BATCH_KEYS + 1 }, (_, i) =>
      i % 2 === 0 ? { owner: ownerA, id: checkA } : { owner: ownerB, id: checkB },
    );
    const reads = keys.map((k) => findCheckToRead(db, k.owner, k.id));
    // The full batch does not wait for a slot: it answers while every slot is still held.
    const full = await Promise.all(reads.slice(0, MAX_BATCH_KEYS));
    expect(full.map((x) => x?.check.id)).toEqual(keys.slice(0, MAX_BATCH_KEYS).map((k) => k.id));
    for (const h of holds) h.release();
    await Promise.all(early);
    expect((await reads[MAX_BATCH_KEYS])?.check.id).toBe(checkA);
    // Two statements for the 501 reads: the full batch, and the one the last read opened.
    expect(watch.checkReads().length).toBe(sentBefore + 2);
  });

  it('inside a transaction a read is not batched: it sees the transaction’s own write', async () => {
    const db = t.database.db;
    const sentBefore = watch.checkReads().length;
    const seen = await transactionJoinedByCalls(db, async (tx) => {
      await tx.run('UPDATE checks SET memo = ? WHERE id = ?', ['uncommitted', checkA]);
      const inside = await findCheckToRead(db, ownerA, checkA);
      throw Object.assign(new Error('roll back'), { inside });
    }).catch((error: { inside?: CheckToRead }) => error.inside);
    expect(seen?.check.memo).toBe('uncommitted');
    // Sent alone, on the transaction's connection (no unnest), and rolled back after.
    const sent = watch.checkReads().slice(sentBefore);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.text).not.toContain('unnest(');
    expect((await findCheckToRead(db, ownerA, checkA))?.check.memo).not.toBe('uncommitted');
  });

  it('a batch whose connection dies fails each of its reads, and the next batch works', async () => {
    const db = t.database.db;
    watch.closeGate();
    const reads = [findCheckToRead(db, ownerA, checkA), findCheckToRead(db, ownerB, checkB)];
    // The connection the batch is about to get, held at the gate, is ended under it.
    await until(async () => watch.atGate().length === 1);
    const [client] = watch.atGate();
    const admin = new (await import('pg')).default.Client({ connectionString: t.database.env.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [(client as unknown as { processID: number }).processID]);
    } finally {
      await admin.end();
    }
    watch.openGate();
    const settled = await Promise.allSettled(reads);
    expect(settled.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    const again = await Promise.all([findCheckToRead(db, ownerA, checkA), findCheckToRead(db, ownerB, checkB)]);
    expect(again.map((x) => x?.check.id)).toEqual([checkA, checkB]);
  });
});
