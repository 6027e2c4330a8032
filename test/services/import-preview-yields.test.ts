// An import's preview of a large file gives the event loop back while it prepares the rows for the
// rules (names matched, cells' errors gathered, each row readied for the next pass of the rules):
// on SQLite every lookup is synchronous, and that loop over 10,000 rows held every other request
// (and /healthz) in one turn. Counted, not timed: how often the loop ran a setImmediate callback
// while the preview ran, beyond the turns the rules themselves give back (validateChecks). The file
// is read inline, on this thread, so the turns counted are the preview's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InlineHeavyWork } from '../../src/heavy-work/inline.ts';
import { previewImport } from '../../src/services/imports/preview.service.ts';
import { seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { turnCounter } from '../support/loop-turns.ts';

const ROWS = 10_000;

function checkDetailCsv(rows: number): string {
  const lines = ['Date,Name,Memo,Amount'];
  for (let i = 0; i < rows; i++) lines.push(`11/02/2026,"New Vendor ${i % 1000}","Row ${i}","12.50"`);
  return `${lines.join('\n')}\n`;
}

describe.each(dialects())('an import preview on %s', (dialect) => {
  let t: TestApp;
  let bankAccountId: string;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    ({ bankAccountId } = await seedBasics(await t.client('preview-turns@example.com')));
  });
  afterAll(() => t.close());

  it('gives the loop back while it prepares 10,000 rows, and finds every row good', async () => {
    const principal = await t.principal('preview-turns@example.com');
    const ctx = { ...t.serviceContext(), heavyWork: new InlineHeavyWork() };
    const options = { kind: 'checks' as const, csv: checkDetailCsv(ROWS), bankAccountId, createPayees: true };
    // Once first, so that loading the reading task's modules is not counted.
    await previewImport(ctx, principal, { ...options, csv: checkDetailCsv(2) });
    const counter = turnCounter();
    const preview = await previewImport(ctx, principal, options);
    const turns = counter.stop();
    expect(preview.errors).toEqual([]);
    expect(preview.input.checks).toHaveLength(ROWS);
    expect(preview.newPayees).toHaveLength(1000);
    // The rules alone give the loop back about 2 × ROWS / 250 times (validateChecks: 80 turns, all
    // there was before); the preview's own loops add one turn each 500 rows, twice (40 more). On
    // PostgreSQL every lookup is real I/O and the loop turns far more often anyway.
    expect(turns).toBeGreaterThanOrEqual(110);
  });
});
