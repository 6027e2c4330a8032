import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { BASE, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';

describe.each(dialects())('idempotency keys (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };
  const send = (method: 'POST' | 'PUT' | 'DELETE', path: string, body: unknown, key: string, client: Client = api) =>
    t.app.inject({
      method,
      url: `${BASE}${path}`,
      headers: {
        authorization: `Bearer ${client.key}`,
        'idempotency-key': key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const accountOf = async (client: Client): Promise<string> => (await t.keys.verify(client.key)).accountId;
  const count = async (): Promise<number> =>
    Number((await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM checks'))?.n);

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('idem@example.com');
    ids = await seedBasics(api);
  });
  afterAll(() => t.close());

  it('the same key and body replays the first response byte for byte, marked as a replay', async () => {
    const body = {
      checks: [
        { ...ids, amount: 10 },
        { ...ids, amount: 20 },
      ],
    };
    const before = await count();
    const first = await send('POST', '/checks', body, 'batch-001');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send('POST', '/checks', body, 'batch-001');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(await count()).toBe(before + 2);
  });

  it('the same key with a different body is a 422; too long a key is a 422', async () => {
    await send('POST', '/checks', { checks: [{ ...ids, amount: 1 }] }, 'batch-002');
    const other = await send('POST', '/checks', { checks: [{ ...ids, amount: 2 }] }, 'batch-002');
    expect(other.statusCode).toBe(422);
    expect(JSON.parse(other.body)).toEqual({
      success: false,
      errorMsg: 'This Idempotency-Key was already used with a different request.',
    });
    const long = await send('POST', '/checks', { checks: [{ ...ids, amount: 2 }] }, 'k'.repeat(256));
    expect(long.statusCode).toBe(422);
    expect(JSON.parse(long.body).errorMsg).toBe('The Idempotency-Key header must be 1 to 255 characters.');
    expect((await send('POST', '/checks', { checks: [{ ...ids, amount: 2 }] }, 'k'.repeat(255))).statusCode).toBe(201);
  });

  it('keys are per account and environment', async () => {
    const other = await t.client('idem-other@example.com');
    const otherIds = await seedBasics(other);
    const mine = await send('POST', '/checks', { checks: [{ ...ids, amount: 5 }] }, 'shared-key');
    const theirs = await send('POST', '/checks', { checks: [{ ...otherIds, amount: 5 }] }, 'shared-key', other);
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();

    // The environment half: the same account's live key, the same Idempotency-Key value.
    const live = await t.client('idem@example.com', { env: 'live' });
    const liveIds = await seedBasics(live);
    const checksIn = async (env: 'test' | 'live'): Promise<number> =>
      Number(
        (
          await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM checks WHERE account_id = ? AND env = ?', [
            await accountOf(api),
            env,
          ])
        )?.n,
      );
    expect(await accountOf(live)).toBe(await accountOf(api));
    const testBefore = await checksIn('test');
    const liveBefore = await checksIn('live');
    const liveRes = await send('POST', '/checks', { checks: [{ ...liveIds, amount: 5 }] }, 'shared-key', live);
    expect(liveRes.statusCode).toBe(201);
    expect(liveRes.headers['idempotent-replayed']).toBeUndefined();
    expect(liveRes.body).not.toBe(mine.body);
    expect(JSON.parse(liveRes.body).data.checks[0].bankAccount.bankAccountId).toBe(liveIds.bankAccountId);
    expect(await checksIn('test')).toBe(testBefore);
    expect(await checksIn('live')).toBe(liveBefore + 1);
  });

  it('covers PUT and DELETE too, and replays refusals as well as successes', async () => {
    const checkId = JSON.parse((await send('POST', '/checks', { checks: [{ ...ids, amount: 7 }] }, 'for-delete')).body)
      .data.checks[0].checkId;
    const deleted = await send('DELETE', `/checks/${checkId}`, undefined, 'delete-1');
    expect(deleted.statusCode).toBe(200);
    const replay = await send('DELETE', `/checks/${checkId}`, undefined, 'delete-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const fresh = await send('DELETE', `/checks/${checkId}`, undefined, 'delete-2');
    expect(fresh.statusCode).toBe(404);
    const refusedAgain = await send('DELETE', `/checks/${checkId}`, undefined, 'delete-2');
    expect(refusedAgain.statusCode).toBe(404);
    expect(refusedAgain.body).toBe(fresh.body);
    const put = await send('PUT', `/payees/${ids.payeeId}`, { nickName: 'A' }, 'put-1');
    expect(put.statusCode).toBe(200);
    expect(
      (await send('PUT', `/payees/${ids.payeeId}`, { nickName: 'A' }, 'put-1')).headers['idempotent-replayed'],
    ).toBe('true');
  });

  it('a failure between the effect and its record undoes the effect: the retry then runs once', async () => {
    // A trigger refuses to record the response of one key, as a crash right after the checks were
    // written would: the checks must not outlive the missing record.
    const db = t.database.db;
    if (dialect === 'sqlite') {
      await db.run(
        "CREATE TRIGGER refuse_doomed BEFORE UPDATE ON idempotency_keys WHEN NEW.idem_key = 'doomed' BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
      );
    } else {
      await db.run(
        "CREATE FUNCTION refuse_doomed() RETURNS trigger AS $$ BEGIN IF NEW.idem_key = 'doomed' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql",
      );
      await db.run(
        'CREATE TRIGGER refuse_doomed BEFORE UPDATE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION refuse_doomed()',
      );
    }
    const body = { checks: [{ ...ids, amount: 9, memo: 'doomed batch' }] };
    const before = await count();
    const failed = await send('POST', '/checks', body, 'doomed');
    expect(failed.statusCode).toBe(500);
    expect(await count()).toBe(before);

    await db.run(
      dialect === 'sqlite' ? 'DROP TRIGGER refuse_doomed' : 'DROP TRIGGER refuse_doomed ON idempotency_keys',
    );
    const retried = await send('POST', '/checks', body, 'doomed');
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await count()).toBe(before + 1);
    expect((await send('POST', '/checks', body, 'doomed')).body).toBe(retried.body);
  });

  it('concurrent requests with one key execute once; the others wait and replay', async () => {
    const before = await count();
    const body = { checks: Array.from({ length: 20 }, () => ({ ...ids, amount: 3 })) };
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => send('POST', '/checks', body, 'concurrent-1')),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(responses.map(() => 201));
    expect(new Set(responses.map((r) => r.body)).size).toBe(1);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await count()).toBe(before + 20);
  });
});
