// Payees in the audit trail: created, edited (old and new values) and deleted, each in the same
// transaction as the change, by the API key that did it — on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

describe.each(dialects())('payees in the audit trail (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  it('records payee.create, payee.edit with what changed, and payee.delete', async () => {
    const api = await t.client('payees@audit.test');
    const made = await api.post('/payees', { payees: [{ name: 'Globex', email: 'ap@globex.test' }] });
    const payeeId: string = made.body.data.payees[0].payeeId;
    expect((await api.put(`/payees/${payeeId}`, { name: 'Globex Corp' })).status).toBe(200);
    // An edit that changes nothing records nothing.
    expect((await api.put(`/payees/${payeeId}`, { name: 'Globex Corp' })).status).toBe(200);
    expect((await api.delete(`/payees/${payeeId}`)).status).toBe(200);
    const rows = await t.database.db.all<{ action: string; changes: string; actor_kind: string }>(
      "SELECT action, changes, actor_kind FROM audit_events WHERE object_type = 'payee' AND object_id = ? ORDER BY seq",
      [payeeId],
    );
    expect(rows.map((r) => r.action)).toEqual(['payee.create', 'payee.edit', 'payee.delete']);
    expect(rows[0]?.changes).toContain('ap@globex.test');
    expect(rows[1]?.changes).toContain('Globex Corp');
    expect(rows[1]?.changes).not.toContain('ap@globex.test');
    expect(rows.every((r) => r.actor_kind === 'api-key')).toBe(true);
  });
});
