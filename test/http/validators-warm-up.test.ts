// The routes' validators are compiled off the request path: once the server listens, server.ts
// compiles the ones no request has needed yet, one per turn of the event loop. A request that comes
// afterwards compiles nothing, so a tenant's first import no longer holds the loop (and /healthz)
// while Ajv compiles its schema and, first of all, Ajv's own meta-schema. Observed through Ajv
// itself (its compile calls), and the loop's turns counted: never timed.
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { compilePendingValidators } from '../../src/http/validation.ts';
import { seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { turnCounter } from '../support/loop-turns.ts';

describe.each(dialects())('route validators on %s', (dialect) => {
  // An app of its own for each attempt: a retry on the same app would find the validators compiled
  // by the first attempt's requests.
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  it('are compiled one per turn of the loop, and an import request afterwards compiles none', async () => {
    t = await startTestApp(dialect);
    const client = await t.client('warm-up@example.com');
    const basics = await seedBasics(client);
    const counter = turnCounter();
    const warmed = await compilePendingValidators();
    const turns = counter.stop();
    // Every route of the API has at least one validator; seedBasics compiled only a few.
    expect(warmed).toBeGreaterThan(50);
    expect(turns).toBeGreaterThanOrEqual(warmed);

    // Ajv's compile counted where Ajv defines it (its core class, which the Ajv class extends).
    const core = Object.getPrototypeOf(Ajv.prototype) as { compile: (...args: unknown[]) => unknown };
    const original = core.compile;
    let compiles = 0;
    core.compile = function (this: unknown, ...args: unknown[]) {
      compiles += 1;
      return original.apply(this, args);
    };
    try {
      const preview = await client.post('/imports', {
        type: 'checks',
        csv: 'Date,Payee,Amount\n2026-11-02,Someone New,12.50\n',
        bankAccountId: basics.bankAccountId,
        createPayees: true,
        dryRun: true,
      });
      expect(preview.status).toBe(200);
      const missing = await client.get('/imports/imp_0000000000000000000000');
      expect(missing.status).toBe(404);
      const invalid = await client.post('/imports', { type: 'nothing' });
      expect(invalid.status).toBe(422);
      expect(compiles).toBe(0);
    } finally {
      core.compile = original;
    }
  });
});
