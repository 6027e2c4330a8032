// The audit trail on both databases: events recorded by the services with the right actor, origin
// and changes (through an API key and through the panel), nothing recorded for a refused or
// rolled-back write, and the chain checked by `verifyChain` after many concurrent writers through
// the HTTP API, then broken by hand and named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/domain/actor.ts';
import { record, verifyChain } from '../../src/services/audit.service.ts';
import { auditCommand } from '../../src/cli/audit.ts';
import { dialects } from '../support/databases.ts';
import { BASE, clientFor, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { Visitor } from '../support/panel-visitor.ts';

const PASSWORD = 'correct horse battery';

interface Row {
  id: string;
  seq: number;
  env: string;
  actor_kind: string;
  actor_id: string;
  actor_label: string;
  role: string;
  ip: string;
  user_agent: string;
  request_id: string;
  action: string;
  object_type: string;
  object_id: string;
  changes: string;
}

describe.each(dialects())('audit trail (%s)', { timeout: 120_000 }, (dialect) => {
  let t: TestApp;
  let api: Client;
  let accountId: string;
  let keyId: string;
  let bankAccountId: string;
  let payeeId: string;
  let phone = 700;

  const eventsOf = (company: string, action?: string): Promise<Row[]> =>
    action === undefined
      ? t.database.db.all<Row>('SELECT * FROM audit_events WHERE account_id = ? ORDER BY seq', [company])
      : t.database.db.all<Row>('SELECT * FROM audit_events WHERE account_id = ? AND action = ? ORDER BY seq', [
          company,
          action,
        ]);

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('audit-api@example.com');
    const row = await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [
      'audit-api@example.com',
    ]);
    accountId = row?.id ?? '';
    const key = await t.database.db.get<{ id: string }>('SELECT id FROM api_keys WHERE account_id = ?', [accountId]);
    keyId = key?.id ?? '';
    ({ bankAccountId, payeeId } = await seedBasics(api));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('names the API key, the request and the fields changed, old and new, for a check written, edited, voided', async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks`,
      headers: {
        authorization: `Bearer ${api.key}`,
        'content-type': 'application/json',
        'user-agent': 'audit-test/1.0',
        'x-request-id': 'req-audit-create',
      },
      payload: JSON.stringify({
        checks: [{ bankAccountId, payeeId, amount: '125.00', issueDate: '2026-11-20', memo: 'rent' }],
      }),
    });
    expect(made.statusCode).toBe(201);
    const checkId: string = JSON.parse(made.body).data.checks[0].checkId;
    expect((await api.put(`/checks/${checkId}`, { amount: '130.50', memo: 'rent, November' })).status).toBe(200);
    expect((await api.post(`/checks/${checkId}/void`)).status).toBe(200);

    const rows = (await eventsOf(accountId)).filter((r) => r.object_id === checkId);
    expect(rows.map((r) => r.action)).toEqual(['check.create', 'check.edit', 'check.void']);
    for (const r of rows) {
      expect(r).toMatchObject({
        env: 'test',
        actor_kind: 'api-key',
        actor_id: keyId,
        actor_label: 'API key ‹test key›',
      });
      expect(r.object_type).toBe('check');
    }
    const [created, edited, voided] = rows;
    expect(created).toMatchObject({ user_agent: 'audit-test/1.0', request_id: 'req-audit-create' });
    expect(created?.ip).not.toBe('');
    expect(JSON.parse(created?.changes ?? '[]')).toEqual(
      expect.arrayContaining([
        { field: 'amountCents', old: null, new: '12500' },
        { field: 'memo', old: null, new: 'rent' },
      ]),
    );
    expect(JSON.parse(edited?.changes ?? '[]')).toEqual([
      { field: 'amountCents', old: '12500', new: '13050' },
      { field: 'memo', old: 'rent', new: 'rent, November' },
    ]);
    expect(JSON.parse(voided?.changes ?? '[]')).toEqual([{ field: 'status', old: 'new', new: 'void' }]);
  });

  it('records print, then reprint, and a delete with what the check held', async () => {
    const made = await api.post('/checks', {
      checks: [{ bankAccountId, payeeId, amount: '9.99', issueDate: '2026-11-20' }],
    });
    const printed = (
      await api.post('/checks', { checks: [{ bankAccountId, payeeId, amount: '1.00', issueDate: '2026-11-20' }] })
    ).body.data.checks[0].checkId as string;
    const doomed: string = made.body.data.checks[0].checkId;
    for (let i = 0; i < 2; i += 1) {
      const pdf = await t.app.inject({
        method: 'POST',
        url: `${BASE}/checks/print`,
        headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ checkIds: [printed] }),
      });
      expect(pdf.statusCode).toBe(200);
    }
    expect((await api.delete(`/checks/${doomed}`)).status).toBe(200);
    const rows = await eventsOf(accountId);
    expect(rows.filter((r) => r.object_id === printed).map((r) => r.action)).toEqual([
      'check.create',
      'check.print',
      'check.reprint',
    ]);
    const deleted = rows.find((r) => r.object_id === doomed && r.action === 'check.delete');
    expect(JSON.parse(deleted?.changes ?? '[]')).toEqual(
      expect.arrayContaining([{ field: 'amountCents', old: '999', new: null }]),
    );
  });

  it('records a bank account with its number masked to the last four, and a webhook without its secret', async () => {
    const rows = await eventsOf(accountId, 'bank-account.create');
    expect(rows.length).toBe(1);
    const changes = JSON.parse(rows[0]?.changes ?? '[]');
    expect(changes).toEqual(expect.arrayContaining([{ field: 'accountNumber', old: null, new: '****6789' }]));
    expect(JSON.stringify(await eventsOf(accountId))).not.toContain('123456789');

    const hook = await api.post('/webhooks', { url: 'https://hooks.example.com/checkwriter' });
    expect(hook.status).toBe(201);
    const secret: string = hook.body.data.secret ?? hook.body.data.webhook?.secret ?? '';
    const created = await eventsOf(accountId, 'webhook.create');
    expect(JSON.parse(created[0]?.changes ?? '[]')).toEqual(
      expect.arrayContaining([{ field: 'url', old: null, new: 'https://hooks.example.com/checkwriter' }]),
    );
    expect(JSON.stringify(created)).not.toContain('whsec_');
    expect(secret === '' || !JSON.stringify(created).includes(secret)).toBe(true);
  });

  it('records nothing for a refused write, and nothing when the write it describes rolls back', async () => {
    const before = (await eventsOf(accountId)).length;
    const refused = await api.post('/checks', {
      checks: [{ bankAccountId, payeeId: 'pay_00000000000000000000000000', amount: '5.00', issueDate: '2026-11-20' }],
    });
    expect(refused.status).toBe(422);
    const check = (
      await api.post('/checks', { checks: [{ bankAccountId, payeeId, amount: '7.00', issueDate: '2026-11-20' }] })
    ).body.data.checks[0].checkId as string;
    expect((await api.post(`/checks/${check}/void`)).status).toBe(200);
    // Voiding twice is refused after the status check: no second event.
    expect((await api.post(`/checks/${check}/void`)).status).toBe(422);
    expect((await eventsOf(accountId)).length).toBe(before + 2);

    const ctx = t.serviceContext();
    await expect(
      ctx.db.transaction(async (tx) => {
        await record(
          tx,
          { accountId, env: 'test', actor: systemActor('test') },
          [{ action: 'check.create', objectType: 'check', objectId: 'chk_rolled_back' }],
          ctx.now(),
        );
        throw new Error('the write failed after its event');
      }),
    ).rejects.toThrow('the write failed');
    expect((await eventsOf(accountId)).some((r) => r.object_id === 'chk_rolled_back')).toBe(false);
    expect(await verifyChain(t.database.db, accountId)).toMatchObject({ ok: true, count: before + 2 });
  });

  it('names the person in the panel, records a failed sign-in with the email tried and never the password', async () => {
    const visitor = new Visitor(t.app);
    phone += 1;
    const email = `audit-panel-${dialect}@example.com`;
    const signedUp = await visitor.signUp({
      company: 'Audit Panel Co',
      email,
      phone: `+1415555${String(phone).padStart(4, '0')}`,
      password: PASSWORD,
    });
    expect(signedUp.status).toBe(303);
    const company =
      (await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [email]))?.id ?? '';
    const key = await visitor.createKey('payroll');
    const stranger = new Visitor(t.app);
    expect((await stranger.signIn(email, 'not the password at all')).status).toBe(401);

    const rows = await eventsOf(company);
    const signIn = rows.find((r) => r.action === 'sign-in');
    expect(signIn).toMatchObject({ actor_kind: 'person', actor_label: email, role: 'owner', ip: visitor.address });
    const created = rows.find((r) => r.action === 'api-key.create');
    expect(created).toMatchObject({ actor_kind: 'person', actor_label: email, env: 'test' });
    expect(JSON.parse(created?.changes ?? '[]')).toEqual(
      expect.arrayContaining([{ field: 'name', old: null, new: 'payroll' }]),
    );
    const failed = rows.find((r) => r.action === 'sign-in.failed');
    expect(failed).toMatchObject({ actor_kind: 'system', ip: stranger.address });
    expect(JSON.parse(failed?.changes ?? '[]')).toEqual([{ field: 'email', old: null, new: email }]);
    const all = JSON.stringify(rows);
    expect(all).not.toContain('not the password at all');
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(key);

    // A check written from the key the person made names the key, not the person.
    const keyed = clientFor(t.app, key);
    const basics = await seedBasics(keyed);
    expect(
      (await keyed.post('/checks', { checks: [{ ...basics, amount: '3.00', issueDate: '2026-11-20' }] })).status,
    ).toBe(201);
    expect((await eventsOf(company, 'check.create'))[0]).toMatchObject({ actor_label: 'API key ‹payroll›' });
  });

  it('keeps one unforked chain under concurrent writers through the HTTP API; a record changed by hand is named', async () => {
    const busy = await t.client(`audit-busy-${dialect}@example.com`);
    const basics = await seedBasics(busy);
    const company =
      (
        await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [
          `audit-busy-${dialect}@example.com`,
        ])
      )?.id ?? '';
    const writes = Array.from({ length: 24 }, (_, i) =>
      busy.post('/checks', { checks: [{ ...basics, amount: `${i + 1}.00`, issueDate: '2026-11-20' }] }),
    );
    const answers = await Promise.all(writes);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    const ids: string[] = answers.map((a) => a.body.data.checks[0].checkId);
    await Promise.all(ids.slice(0, 12).map((id) => busy.put(`/checks/${id}`, { memo: 'edited at once' })));

    const rows = await eventsOf(company);
    // The key the client was given (by the command line), its bank account and payee, then 24
    // creates and 12 edits.
    expect(rows.slice(0, 3).map((r) => r.action)).toEqual(['api-key.create', 'bank-account.create', 'payee.create']);
    expect(rows.filter((r) => r.action === 'check.create').length).toBe(24);
    expect(rows.filter((r) => r.action === 'check.edit').length).toBe(12);
    expect(rows.length).toBe(39);
    expect(rows.map((r) => Number(r.seq))).toEqual(rows.map((_, i) => i + 1));
    expect(await verifyChain(t.database.db, company)).toEqual({ accountId: company, ok: true, count: 39 });

    const lines: string[] = [];
    expect(await auditCommand(t.database.db, 'verify', (line) => lines.push(line))).toBe(0);
    expect(lines).toContain(`${company}: 39 records OK`);

    // One value changed by hand, as someone with the database might: the record is named.
    const target = rows[16];
    await t.database.db.run(`UPDATE audit_events SET changes = ? WHERE account_id = ? AND seq = 17`, [
      JSON.stringify([{ field: 'amountCents', old: null, new: '1' }]),
      company,
    ]);
    const verdict = await verifyChain(t.database.db, company);
    expect(verdict).toMatchObject({ ok: false, seq: 17, id: target?.id ?? '', count: 16 });
    lines.length = 0;
    expect(await auditCommand(t.database.db, 'verify', (line) => lines.push(line))).toBe(1);
    expect(lines.join('\n')).toContain(`${company}: BROKEN at record 17 (${target?.id})`);
  });
});
