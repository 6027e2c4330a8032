import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { BASE, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { operatorSettle } from '../../src/services/mailing.service.ts';

describe.each(dialects())('check lifecycle (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };
  const newCheck = async (extra: Record<string, unknown> = {}): Promise<string> =>
    (await api.post('/checks', { checks: [{ ...ids, amount: 50, ...extra }] })).body.data.checks[0].checkId;
  const statusOf = async (id: string): Promise<{ status: number; statements: string[] }> => {
    const data = (await api.get(`/checks/${id}`)).body.data;
    return { status: data.status, statements: data.checkStatements.map((s: { status: string }) => s.status) };
  };
  const print = (id: string) =>
    t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/print`,
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ checkIds: [id] }),
    });
  const email = (id: string) => api.post('/emailchecks', { emailChecks: [{ checkId: id }] });
  const mail = (id: string) => api.post('/mailchecks', { mailChecks: [{ checkId: id, shippingTypeId: 1 }] });

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('life@example.com');
    ids = await seedBasics(api, { address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });
  });
  afterAll(() => t.close());

  it('new -> printed -> reprinted -> void, each with its statement; void is final', async () => {
    const id = await newCheck();
    expect((await print(id)).statusCode).toBe(200);
    expect((await print(id)).statusCode).toBe(200);
    const voided = await api.post(`/checks/${id}/void`);
    expect(voided.status).toBe(200);
    expect(voided.body.data.checkStatus).toEqual({ status: 5, description: 'Void' });
    expect(await statusOf(id)).toEqual({ status: 5, statements: ['created', 'printed', 'reprinted', 'void'] });
    for (const [res, message] of [
      [await api.post(`/checks/${id}/void`), 'The check cannot be voided: its status is void.'],
      [await email(id), 'The emailChecks.0.checkId field names a check that cannot be emailed: its status is void.'],
      [await api.put(`/checks/${id}`, { memo: 'x' }), 'The check cannot be edited: its status is void.'],
      [await api.delete(`/checks/${id}`), 'The check cannot be deleted: its status is void.'],
      [await mail(id), 'The mailChecks.0.checkId field names a check that cannot be mailed: its status is void.'],
    ] as const) {
      expect(res.status).toBe(422);
      expect(res.body.errorMsg).toBe(message);
    }
    expect((await print(id)).statusCode).toBe(422);
  });

  it('new -> emailed -> emailed again -> void, each with its statement; an emailed check cannot be printed', async () => {
    const id = await newCheck();
    expect((await email(id)).status).toBe(200);
    expect((await email(id)).status).toBe(200);
    const printed = await print(id);
    expect(printed.statusCode).toBe(422);
    expect(JSON.parse(printed.body).errorMsg).toBe(
      'The checkIds.0 field names a check that cannot be printed: its status is emailed.',
    );
    expect((await api.post(`/checks/${id}/void`)).status).toBe(200);
    expect((await statusOf(id)).statements).toEqual(['created', 'emailed', 'emailed', 'void']);
  });

  it('edit and delete only while new', async () => {
    const id = await newCheck({ memo: 'before' });
    const edited = await api.put(`/checks/${id}`, { memo: 'after', amount: '75.25', noSign: true });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({
      memo: 'after',
      amount: 75.25,
      amountInWord: 'Seventy-Five and 25/100',
      status: 0,
    });
    expect((await api.put(`/checks/${id}`, {})).body.errorMsg).toBe('The body must contain at least 1 field.');
    expect((await api.put(`/checks/${id}`, { amount: '1.001' })).body.errorMsg).toBe(
      'The amount field must have at most 2 decimal places.',
    );
    expect((await api.put(`/checks/${id}`, { payeeId: 'pay_missing' })).body.errorMsg).toBe(
      'The selected payeeId is invalid.',
    );
    expect((await api.put(`/checks/${id}`, { bankAccountId: 'x' })).body.errorMsg).toBe(
      'The bankAccountId field is not allowed.',
    );
    expect((await api.delete(`/checks/${id}`)).status).toBe(200);
    expect((await api.get(`/checks/${id}`)).status).toBe(404);
    expect((await api.delete(`/checks/${id}`)).status).toBe(404);
    const printedId = await newCheck();
    await print(printedId);
    expect((await api.delete(`/checks/${printedId}`)).body.errorMsg).toBe(
      'The check cannot be deleted: its status is printed.',
    );
    expect((await api.put(`/checks/${printedId}`, { memo: 'x' })).body.errorMsg).toBe(
      'The check cannot be edited: its status is printed.',
    );
  });

  it('mailing: queued (check locked) -> dispatched by the operator -> mailed; options list', async () => {
    const options = await api.get('/mailchecks/mailingOptions');
    expect(options.body.data.shippingTypes[0]).toEqual({ shippingTypeId: 1, name: 'First Class', deliveryDays: '3-5' });
    expect(options.body.data.paperTypes.length).toBeGreaterThan(0);
    const id = await newCheck();
    const queued = await mail(id);
    expect(queued.status).toBe(200);
    const mailingId = queued.body.data.mailings[0].mailingId;
    expect(queued.body.data.mailings[0]).toMatchObject({
      checkId: id,
      shippingTypeId: 1,
      paperTypeId: 7,
      status: 'queued',
    });
    expect((await email(id)).body.errorMsg).toBe(
      'The check cannot be emailed: it is queued for mailing; cancel the mailing first.',
    );
    expect((await api.put(`/checks/${id}`, { memo: 'x' })).body.errorMsg).toBe(
      'The check cannot be edited: it is queued for mailing; cancel the mailing first.',
    );
    expect((await mail(id)).body.errorMsg).toBe(
      'The mailChecks.0.checkId field names a check that is already queued for mailing.',
    );
    // The check shows it waits in the queue, its status code still the spec's 0 (new).
    expect(await statusOf(id)).toEqual({ status: 0, statements: ['created', 'queued for mailing'] });
    const waiting = (await api.get(`/checks/${id}`)).body.data.mailing;
    expect(waiting).toMatchObject({ mailingId, shippingTypeId: 1, shippingType: 'First Class', status: 'queued' });
    expect(waiting.queued.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(waiting.settled).toBeNull();
    const listed = (await api.get('/checks?perPage=100')).body.data.checks;
    expect(listed.find((c: { checkId: string }) => c.checkId === id).mailing.status).toBe('queued');
    const dispatched = await operatorSettle(t.database.db, mailingId, 'dispatched');
    expect(dispatched.status).toBe('dispatched');
    expect(await statusOf(id)).toEqual({ status: 2, statements: ['created', 'queued for mailing', 'mailed'] });
    const sent = (await api.get(`/checks/${id}`)).body.data.mailing;
    expect(sent).toMatchObject({ mailingId, status: 'dispatched' });
    expect(sent.settled.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await api.post(`/mailchecks/${mailingId}/cancel`)).body.errorMsg).toBe(
      'The mailing cannot be cancelled: it is already dispatched.',
    );
    expect((await api.post(`/checks/${id}/void`)).status).toBe(200);
  });

  it('mailing cancelled before dispatch ends in refunded (final)', async () => {
    const id = await newCheck();
    const mailingId = (await mail(id)).body.data.mailings[0].mailingId;
    const cancelled = await api.post(`/mailchecks/${mailingId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(await statusOf(id)).toEqual({ status: 6, statements: ['created', 'queued for mailing', 'refunded'] });
    expect((await api.get(`/checks/${id}`)).body.data.mailing).toMatchObject({ mailingId, status: 'cancelled' });
    expect((await api.post(`/checks/${id}/void`)).body.errorMsg).toBe(
      'The check cannot be voided: its status is refunded.',
    );
    expect((await api.post('/mailchecks/mail_missing/cancel')).status).toBe(404);
  });

  it('mailing needs a destination and a known shipping type', async () => {
    const bare = (await api.post('/payees', { payees: [{ name: 'No Address' }] })).body.data.payees[0].payeeId;
    const id = await newCheck({ payeeId: bare });
    expect((await mail(id)).body.errorMsg).toBe(
      'The mailChecks.0.customToAddressId field is required when the payee has no mailing address on record.',
    );
    expect((await api.post('/mailchecks', { mailChecks: [{ checkId: id, shippingTypeId: 99 }] })).body.errorMsg).toBe(
      'The selected mailChecks.0.shippingTypeId is invalid.',
    );
    const to = (
      await api.post('/customToAddresses', {
        addresses: [{ name: 'Elsewhere', addressLine1: '9 Elm', city: 'Peoria', state: 'IL', zip: '61602' }],
      })
    ).body.data.addresses[0].customToAddressId;
    expect(
      (await api.post('/mailchecks', { mailChecks: [{ checkId: id, shippingTypeId: 3, customToAddressId: to }] }))
        .status,
    ).toBe(200);
  });

  it('list totals (kept in check_counts) and every page agree with the rows themselves after all these moves', async () => {
    const full = (await api.get('/checks?perPage=500')).body.data;
    const rows = await t.database.db.all<{ status: number; n: number }>(
      'SELECT status, COUNT(*) AS n FROM checks GROUP BY status',
    );
    expect(full.meta.total).toBe(rows.reduce((sum, r) => sum + Number(r.n), 0));
    for (const name of ['new', 'printed', 'mailed', 'emailed', 'eprinted', 'void', 'refunded']) {
      const code = ['new', 'printed', 'mailed', 'emailed', 'eprinted', 'void', 'refunded'].indexOf(name);
      const expected = Number(rows.find((r) => Number(r.status) === code)?.n ?? 0);
      expect((await api.get(`/checks?status=${name}&perPage=1`)).body.data.meta.total, name).toBe(expected);
    }
    const ids: string[] = [];
    for (let page = 1; page <= Math.ceil(full.meta.total / 7); page += 1) {
      ids.push(
        ...(await api.get(`/checks?perPage=7&page=${page}`)).body.data.checks.map(
          (c: { checkId: string }) => c.checkId,
        ),
      );
    }
    expect(ids).toEqual(full.checks.map((c: { checkId: string }) => c.checkId));
  });
});
