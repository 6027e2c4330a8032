import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';

interface DeliveryRow {
  check_id: string;
  channel: string;
  recipient: string;
  status: string;
  payload: string;
}

describe.each(dialects())('POST /emailchecks (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };
  const deliveries = (checkId: string) =>
    t.database.db.all<DeliveryRow>(
      'SELECT check_id, channel, recipient, status, payload FROM deliveries WHERE check_id = ? ORDER BY channel',
      [checkId],
    );
  const newCheck = async (extra: Record<string, unknown> = {}): Promise<string> =>
    (await api.post('/checks', { checks: [{ ...ids, amount: 25, ...extra }] })).body.data.checks[0].checkId;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('mailer@example.com');
    ids = await seedBasics(api);
  });
  afterAll(() => t.close());

  it('moves the check to emailed with a statement and queues its deliveries durably', async () => {
    const checkId = await newCheck();
    const res = await api.post('/emailchecks', {
      emailChecks: [{ checkId, enableSmsInform: true, sendAttachment: 1 }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Check emailed successfully.' });
    const check = (await api.get(`/checks/${checkId}`)).body.data;
    expect(check.status).toBe(3);
    expect(check.checkStatus).toEqual({ status: 3, description: 'Emailed' });
    expect(check.checkStatements.map((s: { status: string }) => s.status)).toEqual(['created', 'emailed']);
    expect(
      (await api.get('/checks?status=emailed')).body.data.checks.map((c: { checkId: string }) => c.checkId),
    ).toContain(checkId);
    const rows = await deliveries(checkId);
    expect(rows.map((r) => [r.channel, r.recipient, r.status])).toEqual([
      ['email', 'ap@acme.test', 'queued'],
      ['sms', '+14155552671', 'queued'],
    ]);
    expect(JSON.parse(rows[0]?.payload ?? '{}')).toEqual({ sendAttachment: 1 });
  });

  it('uses payeeEmail and payeePhone when given, normalising the phone', async () => {
    const checkId = await newCheck();
    const res = await api.post('/emailchecks', {
      emailChecks: [{ checkId, payeeEmail: 'other@payee.test', enableSmsInform: true, payeePhone: '(212) 555-0123' }],
    });
    expect(res.status).toBe(200);
    expect((await deliveries(checkId)).map((r) => r.recipient)).toEqual(['other@payee.test', '+12125550123']);
  });

  it('requires payeeEmail and payeePhone only when the payee has none on record', async () => {
    const bare = await api.post('/payees', { payees: [{ name: 'No Contact Ltd' }] });
    const payeeId = bare.body.data.payees[0].payeeId;
    const checkId = await newCheck({ payeeId });
    const noEmail = await api.post('/emailchecks', { emailChecks: [{ checkId }] });
    expect(noEmail.status).toBe(422);
    expect(noEmail.body).toEqual({
      success: false,
      errorMsg: 'The emailChecks.0.payeeEmail field is required when the payee has no email on record.',
    });
    const noPhone = await api.post('/emailchecks', {
      emailChecks: [{ checkId, payeeEmail: 'a@b.test', enableSmsInform: true }],
    });
    expect(noPhone.body.errorMsg).toBe(
      'The emailChecks.0.payeePhone field is required when enableSmsInform is true and the payee has no phone on record.',
    );
    const badPhone = await api.post('/emailchecks', {
      emailChecks: [{ checkId, payeeEmail: 'a@b.test', enableSmsInform: true, payeePhone: '12' }],
    });
    expect(badPhone.body.errorMsg).toBe('The emailChecks.0.payeePhone field must be a valid phone number.');
    expect((await api.get(`/checks/${checkId}`)).body.data.status).toBe(0);
    expect(await deliveries(checkId)).toEqual([]);
  });

  it('is all or nothing: one bad item leaves every check untouched', async () => {
    const good = await newCheck();
    const before = Number((await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM deliveries'))?.n);
    for (const [items, message] of [
      [[{ checkId: good }, {}], 'The emailChecks.1.checkId field is required.'],
      [[{ checkId: good }, { checkId: 'chk_missing' }], 'The selected emailChecks.1.checkId is invalid.'],
      [[{ checkId: good }, { checkId: good }], 'The emailChecks.1.checkId field has a duplicate value.'],
      [
        [{ checkId: good, sendAttachment: 2 }],
        'The emailChecks.0.sendAttachment field must be 0 or 1 (or true or false).',
      ],
      [
        [{ checkId: good, payeeEmail: 'not-an-email' }],
        'The emailChecks.0.payeeEmail field must be a valid email address.',
      ],
      [[{ checkId: good, enableSmsInform: 'yes' }], 'The emailChecks.0.enableSmsInform field must be true or false.'],
      [[], 'The emailChecks field must have at least 1 item.'],
    ] as const) {
      const res = await api.post('/emailchecks', { emailChecks: items });
      expect(res.status, message).toBe(422);
      expect(res.body).toEqual({ success: false, errorMsg: message });
    }
    expect((await api.get(`/checks/${good}`)).body.data.status).toBe(0);
    expect(Number((await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM deliveries'))?.n)).toBe(before);
  });

  it('403 for an account whose email or phone is unverified, before looking at items', async () => {
    const unverified = await t.client('newbie@example.com', { verified: false });
    const res = await unverified.post('/emailchecks', { emailChecks: [{ checkId: 'chk_anything' }] });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      success: false,
      errorMsg: 'Please verify your phone number and email address to enable mail check.',
    });
  });

  it('refuses to email a void check (422 naming its status)', async () => {
    const checkId = await newCheck();
    await t.database.db.run('UPDATE checks SET status = 5 WHERE id = ?', [checkId]);
    const res = await api.post('/emailchecks', { emailChecks: [{ checkId }] });
    expect(res.status).toBe(422);
    expect(res.body.errorMsg).toBe(
      'The emailChecks.0.checkId field names a check that cannot be emailed: its status is void.',
    );
  });
});
