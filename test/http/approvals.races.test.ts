// Approvals racing each other and the check's other moves, on both databases, each race run
// several times: two approvers at once count once each; an approval racing an edit never approves
// the edited amount; an approval racing a void leaves a void check; a print racing the last
// approval never prints an unapproved check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as decisions from '../../src/services/approvals/decisions.service.ts';
import * as approvals from '../../src/services/approvals/approvals.service.ts';
import * as policies from '../../src/services/approvals/policy.service.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { addPerson, type TestPerson } from '../support/people.ts';

const ROUNDS = 6;

describe.each(dialects())('approval races (%s)', { timeout: 180_000 }, (dialect) => {
  let t: TestApp;
  let api: Client;
  let basics: { bankAccountId: string; payeeId: string };
  let accountId: string;
  let ada: TestPerson;
  let bea: TestPerson;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const email = `races-${dialect}@example.com`;
    api = await t.client(email);
    basics = await seedBasics(api);
    accountId = (await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [email]))?.id ?? '';
    ada = await addPerson(t, accountId, { email: `ada-r-${dialect}@example.com`, name: 'Ada', role: 'approver' });
    bea = await addPerson(t, accountId, { email: `bea-r-${dialect}@example.com`, name: 'Bea', role: 'approver' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const rule = async (approvers: 1 | 2): Promise<void> => {
    const owner = await t.principal(`races-${dialect}@example.com`);
    await policies.setPolicy(t.serviceContext(), owner, { thresholdCents: 100_000, approvers });
  };
  const write = async (): Promise<string> => {
    const made = await api.post('/checks', { checks: [{ ...basics, amount: '5000.00' }] });
    expect(made.status, made.raw).toBe(201);
    return made.body.data.checks[0].checkId;
  };
  const versionOf = async (id: string): Promise<number> =>
    (await approvals.approvalViews(t.database.db, ada.principal, [id])).get(id)?.version ?? 0;
  const approve = (who: TestPerson, id: string, version: number) =>
    decisions.approveChecks(t.serviceContext(), who.principal, [{ checkId: id, version }]).then(
      () => 'ok' as const,
      (error: Error) => error.message,
    );
  const approvalOf = async (id: string) => (await api.get(`/checks/${id}`)).body.data.approval;

  it('two approvers approving at once count once each', async () => {
    await rule(2);
    for (let i = 0; i < ROUNDS; i++) {
      const id = await write();
      const v = await versionOf(id);
      const [a, b] = await Promise.all([approve(ada, id, v), approve(bea, id, v)]);
      expect([a, b]).toEqual(['ok', 'ok']);
      const after = await approvalOf(id);
      expect(after.status).toBe('approved');
      expect(after.approvals.map((x: { by: string }) => x.by).sort()).toEqual(['Ada', 'Bea']);
      const count = await t.database.db.get<{ n: number }>(
        'SELECT approved_count AS n FROM check_approval_rules WHERE check_id = ?',
        [id],
      );
      expect(Number(count?.n)).toBe(2);
    }
  });

  it('the same approver twice at once counts once', async () => {
    await rule(2);
    for (let i = 0; i < ROUNDS; i++) {
      const id = await write();
      const v = await versionOf(id);
      const results = await Promise.all([approve(ada, id, v), approve(ada, id, v)]);
      expect(results.filter((r) => r === 'ok')).toHaveLength(1);
      expect(await approvalOf(id)).toMatchObject({ status: 'pending', approvals: [{ by: 'Ada' }] });
    }
  });

  it('an approval racing an edit never approves the edited amount', async () => {
    await rule(1);
    for (let i = 0; i < ROUNDS; i++) {
      const id = await write();
      // The approver saw the $5,000.00 check; the edit makes it $9,000.00 meanwhile.
      const seen = await versionOf(id);
      const [, edited] = await Promise.all([approve(ada, id, seen), api.put(`/checks/${id}`, { amount: '9000.00' })]);
      expect(edited.status, edited.raw).toBe(200);
      const read = (await api.get(`/checks/${id}`)).body.data;
      expect(read.amount).toBe(9000);
      // Whichever came first, the $9,000.00 check waits for an approval of its own.
      expect(read.approval).toMatchObject({ status: 'pending', approvals: [] });
      expect((await api.post('/checks/print', { checkIds: [id] })).status).toBe(422);
    }
  });

  it('an approval racing a void leaves a void check', async () => {
    await rule(1);
    for (let i = 0; i < ROUNDS; i++) {
      const id = await write();
      const v = await versionOf(id);
      const [, voided] = await Promise.all([approve(ada, id, v), api.post(`/checks/${id}/void`)]);
      expect(voided.status, voided.raw).toBe(200);
      expect((await api.get(`/checks/${id}`)).body.data.status).toBe(5);
    }
  });

  it('a print racing the last approval never prints an unapproved check', async () => {
    await rule(1);
    for (let i = 0; i < ROUNDS; i++) {
      const id = await write();
      const v = await versionOf(id);
      const [approved, print] = await Promise.all([approve(ada, id, v), api.post('/checks/print', { checkIds: [id] })]);
      expect(approved).toBe('ok');
      if (print.status === 200) {
        // Printed only after the approval committed: the trail has the approval first.
        const steps = await t.database.db.all<{ action: string }>(
          'SELECT action FROM audit_events WHERE object_id = ? ORDER BY seq',
          [id],
        );
        expect(steps.map((s) => s.action)).toEqual(['check.create', 'check.approve', 'check.print']);
      } else {
        expect(print.status).toBe(422);
        expect((await api.get(`/checks/${id}`)).body.data.status).toBe(0);
      }
    }
  });
});
