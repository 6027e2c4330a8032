// The rules of a large batch without writing it (an import's preview of 10,000 rows) give the
// event loop back between slices: on SQLite every statement is synchronous, and a batch judged in
// one turn held every other request (and /healthz) until it ended. Counted, not timed: how often
// the loop ran a setImmediate callback while the rules ran. The errors found are the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../src/errors.ts';
import { validateChecks } from '../../src/services/checks/write.service.ts';
import { seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { turnCounter } from '../support/loop-turns.ts';

const ITEMS = 2_000;

describe.each(dialects())('validateChecks on %s', (dialect) => {
  let t: TestApp;
  let basics: { bankAccountId: string; payeeId: string };
  beforeAll(async () => {
    t = await startTestApp(dialect);
    basics = await seedBasics(await t.client('rules@example.com'));
  });
  afterAll(() => t.close());

  it('gives the loop back while it judges a large batch, and reports every failing item', async () => {
    const principal = await t.principal('rules@example.com');
    const items = Array.from({ length: ITEMS }, (_, i) => ({
      ...basics,
      // Every 100th item has an amount no check may have.
      amount: i % 100 === 99 ? '0' : '12.50',
      memo: `Row ${i}`,
    }));
    const counter = turnCounter();
    const refused: number[] = [];
    await validateChecks(t.serviceContext(), principal, items, (index: number, _error: AppError) => {
      refused.push(index);
    });
    const turns = counter.stop();
    expect(refused).toEqual(Array.from({ length: ITEMS / 100 }, (_, k) => k * 100 + 99));
    expect(turns).toBeGreaterThanOrEqual(ITEMS / 250);
  });
});
