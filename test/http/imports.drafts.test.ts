import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/domain/owner.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { saveDraft } from '../../src/services/imports/drafts.service.ts';
import { DRAFT_TTL_MS, MAX_DRAFTS } from '../../src/services/imports/model.ts';
import { startImport } from '../../src/services/imports/preview.service.ts';
import { getImport } from '../../src/services/imports/records.service.ts';
import { ImportRunner, importRunner } from '../../src/services/imports/runner.service.ts';
import { dialects } from '../support/databases.ts';
import { startTestApp, type Client, type TestApp } from '../support/app.ts';
import { until } from '../support/until.ts';

const quiet = { error: () => undefined };
const CSV = 'Name,Email\nAcme Paper Co.,ap@acme.example\n';

// A panel upload is kept as a draft (its whole file) until its preview is confirmed. Drafts
// nobody confirms must not pile up: at most MAX_DRAFTS per owner, none older than a day.
describe.each(dialects())('import drafts are bounded (%s)', { timeout: 60_000 }, (dialect) => {
  let t: TestApp;
  let api: Client;
  let principal: Principal;
  let other: Principal;
  let clock = Date.now();
  let ctx: ServiceContext;

  const draftCount = async (owner: Principal): Promise<number> => {
    const row = await t.database.db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM imports WHERE account_id = ? AND env = ? AND state = 'draft'",
      [owner.accountId, owner.env],
    );
    return Number(row?.n);
  };
  const exists = (owner: Principal, id: string) =>
    getImport(ctx, owner, id).then(
      () => true,
      () => false,
    );

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('drafts@example.com');
    await t.client('other-drafts@example.com');
    // Every draft a millisecond apart, so "newest" is never a tie.
    ctx = t.serviceContext(() => ++clock);
    principal = await t.principal('drafts@example.com');
    other = await t.principal('other-drafts@example.com');
    await importRunner(ctx)?.stop();
  });
  afterAll(() => t.close());

  it(`keeps an owner's ${MAX_DRAFTS} newest drafts; another owner's and the other environment's are untouched`, async () => {
    const live = { ...principal, env: 'live' as const };
    const theirs = await saveDraft(ctx, other, { kind: 'payees', csv: CSV });
    const liveDraft = await saveDraft(ctx, live, { kind: 'payees', csv: CSV });
    const ids: string[] = [];
    for (let i = 0; i < MAX_DRAFTS + 3; i++)
      ids.push((await saveDraft(ctx, principal, { kind: 'payees', csv: CSV })).id);
    expect(await draftCount(principal)).toBe(MAX_DRAFTS);
    for (const id of ids.slice(0, 3)) expect(await exists(principal, id)).toBe(false);
    for (const id of ids.slice(3)) expect(await exists(principal, id)).toBe(true);
    expect(await exists(other, theirs.id)).toBe(true);
    expect(await exists(live, liveDraft.id)).toBe(true);
    // The page of a trimmed draft is a 404 like any unknown import, not a 500.
    expect((await api.get(`/imports/${ids[0]}`)).status).toBe(404);
  });

  it('the runner deletes drafts older than a day, and nothing else', async () => {
    const dayAgo = clock - DRAFT_TTL_MS - 60_000;
    const old = { ...ctx, now: () => dayAgo };
    const staleOther = await saveDraft(old, other, { kind: 'payees', csv: CSV });
    const staleMine = await saveDraft(old, principal, { kind: 'payees', csv: CSV });
    const oldImport = await startImport(old, principal, { kind: 'payees', csv: CSV });
    const fresh = await saveDraft(ctx, other, { kind: 'payees', csv: CSV });

    const runner = new ImportRunner(ctx, quiet, 50);
    runner.start();
    await until(async () => !(await exists(other, staleOther.id)));
    await until(async () => (await getImport(ctx, principal, oldImport.id)).state === 'succeeded');
    await runner.stop();

    expect(await exists(principal, staleMine.id)).toBe(false);
    expect(await exists(other, fresh.id)).toBe(true);
    // A confirmed import is a record of what was written: kept however old.
    expect((await api.get(`/imports/${oldImport.id}`)).body.data).toMatchObject({ state: 'succeeded', rowsDone: 1 });
  });
});
