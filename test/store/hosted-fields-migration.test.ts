// Migration 010 renumbers queued mailings from our old shipping and paper ids to the hosted
// service's (docs/lifecycle.md): a mailing keeps the service it asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { up } from '../../src/store/migrations/010-hosted-fields.ts';
import { columnTypes } from '../../src/store/dialect.ts';

describe.each(dialects())('migration 010: hosted shipping and paper ids (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('maps shipping 1, 2, 3, 4 to 1, 3, 4, 12 and paper 1, 2 to 7, 8', async () => {
    const api = await t.client('migrate@example.com');
    const basics = await seedBasics(api, { address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });
    const made = await api.post('/checks', { checks: Array.from({ length: 4 }, () => ({ ...basics, amount: 1 })) });
    const ids: string[] = made.body.data.checks.map((c: { checkId: string }) => c.checkId);
    const mailed = await api.post('/mailchecks', {
      mailChecks: ids.map((checkId) => ({ checkId, shippingTypeId: 1 })),
    });
    expect(mailed.status, mailed.raw).toBe(200);
    // Put the rows back as the old numbering wrote them, then run the migration's renumbering.
    for (const [i, checkId] of ids.entries()) {
      await t.database.db.run('UPDATE mailings SET shipping_type_id = ?, paper_type_id = ? WHERE check_id = ?', [
        i + 1,
        (i % 2) + 1,
        checkId,
      ]);
    }
    for (const statement of up(columnTypes(t.database.db.dialect)).filter((s) => s.startsWith('UPDATE')))
      await t.database.db.run(statement);
    const rows = await t.database.db.all<{ check_id: string; shipping_type_id: number; paper_type_id: number }>(
      'SELECT check_id, shipping_type_id, paper_type_id FROM mailings',
    );
    const byCheck = new Map(rows.map((r) => [r.check_id, [Number(r.shipping_type_id), Number(r.paper_type_id)]]));
    expect(ids.map((id) => byCheck.get(id))).toEqual([
      [1, 7],
      [3, 8],
      [4, 7],
      [12, 8],
    ]);
  });
});
