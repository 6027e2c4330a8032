// The longest steps at the ends of an import each get a turn of the event loop of their own: the
// rows' text stored by startImport, the rows read back by the runner, and its result with the
// COMMIT. Together in one turn they held /healthz for tens of milliseconds (SQLite, where every
// statement is synchronous). Counted, not timed: the loop's turns while each ran, against the
// turns the writing's own chunks give back. What was written is read back by GET /checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InlineHeavyWork } from '../../src/heavy-work/inline.ts';
import { previewImport, startImport } from '../../src/services/imports/preview.service.ts';
import { runImport } from '../../src/services/imports/runner.service.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { turnCounter } from '../support/loop-turns.ts';

const ROWS = 500;
const NEW_PAYEES = 100;
/** Rows per service call of the runner (runner.service.ts): each chunk is one turn. */
const RUNNER_CHUNK = 50;

describe.each(dialects())('an import on %s', (dialect) => {
  let t: TestApp;
  let client: Client;
  let bankAccountId: string;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    client = await t.client('runner-turns@example.com');
    ({ bankAccountId } = await seedBasics(client));
  });
  afterAll(() => t.close());

  it('gives the loop back between its long steps, and writes every row', async () => {
    const principal = await t.principal('runner-turns@example.com');
    const ctx = { ...t.serviceContext(), heavyWork: new InlineHeavyWork() };
    const lines = ['Date,Name,Amount'];
    for (let i = 0; i < ROWS; i++) lines.push(`11/02/2026,"Turns Vendor ${i % NEW_PAYEES}","12.50"`);
    const options = { kind: 'checks' as const, csv: `${lines.join('\n')}\n`, bankAccountId, createPayees: true };
    // startImport is the preview and then the rows stored: one turn more than the preview alone
    // (previewed once first, so that loading the reading task's modules is not counted).
    await previewImport(ctx, principal, options);
    const previewing = turnCounter();
    await previewImport(ctx, principal, options);
    const previewTurns = previewing.stop();
    const starting = turnCounter();
    const started = await startImport(ctx, principal, options);
    const startTurns = starting.stop();
    // On PostgreSQL every statement is I/O and the loop turns a varying number of times on each.
    if (dialect === 'sqlite') expect(startTurns).toBeGreaterThanOrEqual(previewTurns + 1);
    const counter = turnCounter();
    const ended = await runImport(ctx, started.id);
    const turns = counter.stop();
    expect(ended?.state).toBe('succeeded');
    // One turn per chunk of payees and of checks, and one before reading the rows back and one
    // before the COMMIT.
    expect(turns).toBeGreaterThanOrEqual(NEW_PAYEES / RUNNER_CHUNK + ROWS / RUNNER_CHUNK + 2);
    // Read back through the API: the import's checks (seedBasics wrote none).
    const checks = await client.get('/checks?perPage=1');
    expect(checks.status).toBe(200);
    expect(checks.body.data.meta.total).toBe(ROWS);
  });
});
