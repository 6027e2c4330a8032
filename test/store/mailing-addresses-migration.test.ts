// Migration 024 on a database as release 023 left it, holding what the old delete race could
// leave: mailings naming a custom address that is gone. A queued one refuses the migration and
// nothing changes; once it is cancelled, the migration clears the settled ones' dead reference,
// keeps every live one, and from then on the database itself refuses to lose a mailing's address.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { HeavyWork } from '../../src/heavy-work/heavy-work.ts';
import { openHeavyWork } from '../../src/heavy-work/open-heavy-work.ts';
import { ApiKeys, ensureAccount } from '../../src/services/api-key.service.ts';
import { operatorSettle } from '../../src/services/mailing.service.ts';
import { connect } from '../../src/store/connect.ts';
import { type Db, ForeignKeyViolation } from '../../src/store/db.ts';
import { columnTypes } from '../../src/store/dialect.ts';
import { migrate } from '../../src/store/migrate.ts';
import * as people from '../../src/store/migrations/026-people.ts';
import * as peopleTokens from '../../src/store/migrations/027-people-tokens-and-key-authors.ts';
import * as auditTrail from '../../src/store/migrations/028-audit-trail.ts';
import * as secondFactors from '../../src/store/migrations/030-second-factors.ts';
import * as approvals from '../../src/store/migrations/031-approvals.ts';
import * as positivePayLayouts from '../../src/store/migrations/033-positive-pay-layouts.ts';
import { type Client, clientFor, seedBasics } from '../support/app.ts';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';

describe.each(dialects())('migration 024: mailing addresses as foreign keys (%s)', (dialect) => {
  let db: Db;
  let app: FastifyInstance;
  let heavyWork: HeavyWork;
  let cleanup: () => Promise<void>;
  let api: Client;

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    cleanup = fresh.cleanup;
    db = connect(fresh.config);
    expect((await migrate(db, null, { through: 23 })).at(-1)).toBe(23);
    // Today's services write people, key authors, the audit trail, second factors, approvals and a
    // bank account's positive pay layout (026–033), which do not touch what 024 changes: their
    // tables are made here, beside the 023 schema, so the data below is written by today's code as
    // the old delete race left it. The migrations table still ends at 023, and the test applies
    // 024 alone.
    await db.transaction(async (tx) => {
      for (const later of [people, peopleTokens, auditTrail, secondFactors, approvals, positivePayLayouts])
        for (const statement of later.up(columnTypes(tx.dialect))) await tx.run(statement);
    });
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_KEY: '0',
      FAILED_REQUEST_LIMIT_PER_MINUTE: '0',
      ...fresh.env,
    });
    const keys = await ApiKeys.open(db, config);
    heavyWork = openHeavyWork(config.heavyWork);
    app = await buildApp(config, { db, keys, heavyWork });
    await app.ready();
    const { account } = await ensureAccount(db, {
      email: 'upgrade-024@example.com',
      verified: true,
      phone: '+14155552671',
    });
    api = clientFor(app, (await keys.create(account.id, 'test', 'test key')).key);
  });
  afterAll(async () => {
    await app.close();
    await heavyWork.close();
    await db.close();
    await cleanup();
  });

  const toAddress = async (name: string): Promise<string> => {
    const made = await api.post('/customToAddresses', { addresses: [{ name, addressLine1: '9 Elm St' }] });
    expect(made.status, made.raw).toBe(201);
    return made.body.data.addresses[0].customToAddressId;
  };

  const mailingOf = (id: string) =>
    db.get<{ status: string; to_address_id: string | null; from_address_id: string | null }>(
      'SELECT status, to_address_id, from_address_id FROM mailings WHERE id = ?',
      [id],
    );

  it('refuses while a queued mailing lost its address, then keeps live references and clears dead settled ones', async () => {
    const basics = await seedBasics(api, { address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });
    const from = await api.post('/customFromAddresses', { addresses: [{ name: 'Office', addressLine1: '2 Oak St' }] });
    expect(from.status, from.raw).toBe(201);
    const fromId: string = from.body.data.addresses[0].customFromAddressId;
    const [intact, lostQueued, lostCancelled] = [
      await toAddress('Intact'),
      await toAddress('Lost'),
      await toAddress('Gone'),
    ];
    const made = await api.post('/checks', {
      checks: Array.from({ length: 3 }, () => ({ ...basics, amount: '5.00' })),
    });
    expect(made.status, made.raw).toBe(201);
    const checkIds: string[] = made.body.data.checks.map((c: { checkId: string }) => c.checkId);
    const mailed = await api.post('/mailchecks', {
      mailChecks: [intact, lostQueued, lostCancelled].map((customToAddressId, i) => ({
        checkId: checkIds[i],
        shippingTypeId: 1,
        customToAddressId,
      })),
      customFromAddressId: fromId,
    });
    expect(mailed.status, mailed.raw).toBe(200);
    const [keep, queued, cancelled] = mailed.body.data.mailings.map((m: { mailingId: string }) => m.mailingId);
    await operatorSettle(db, cancelled, 'cancelled');
    // What the race left on release 023, which had no foreign key to stop it.
    for (const id of [lostQueued, lostCancelled])
      expect(await db.run('DELETE FROM addresses WHERE id = ?', [id])).toBe(1);

    await expect(migrate(db)).rejects.toThrow(new RegExp(`migration 024 refused: 1 queued mailing\\(s\\) .*${queued}`));
    // Refused as a whole: not recorded, nothing rewritten.
    expect(await db.get('SELECT id FROM schema_migrations WHERE id = 24')).toBeUndefined();
    expect((await mailingOf(cancelled))?.to_address_id).toBe(lostCancelled);

    // The remedy the message names: the mailing is cancelled; the upgrade then goes through.
    await operatorSettle(db, queued, 'cancelled');
    // Through 024 only: the migrations after it are not this test's subject.
    expect(await migrate(db, null, { through: 24 })).toEqual([24]);
    expect(await mailingOf(keep)).toEqual({ status: 'queued', to_address_id: intact, from_address_id: fromId });
    expect(await mailingOf(queued)).toEqual({ status: 'cancelled', to_address_id: null, from_address_id: fromId });
    expect(await mailingOf(cancelled)).toEqual({ status: 'cancelled', to_address_id: null, from_address_id: fromId });

    // The database now refuses to lose a mailing's address, even to a statement that skips the
    // service's guard; the API answers the spec's 409 and the address stays.
    for (const id of [intact, fromId])
      await expect(db.run('DELETE FROM addresses WHERE id = ?', [id])).rejects.toBeInstanceOf(ForeignKeyViolation);
    await expect(
      db.run('UPDATE mailings SET to_address_id = ? WHERE id = ?', ['to_nowhere', keep]),
    ).rejects.toBeInstanceOf(ForeignKeyViolation);
    const refused = await api.delete(`/customToAddresses/${intact}`);
    expect(refused.status, refused.raw).toBe(409);
    expect(refused.body).toEqual({
      success: false,
      errorMsg: 'A mailing was sent to this address, so it cannot be deleted.',
    });
    // The rebuilt table (SQLite) and the new constraints (PostgreSQL) take new mailings as before.
    const another = await api.post('/checks', { checks: [{ ...basics, amount: '6.00' }] });
    const again = await api.post('/mailchecks', {
      mailChecks: [{ checkId: another.body.data.checks[0].checkId, shippingTypeId: 1, customToAddressId: intact }],
    });
    expect(again.status, again.raw).toBe(200);
    expect(await migrate(db, null, { through: 24 })).toEqual([]);
  });
});
