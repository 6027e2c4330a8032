// A CR/LF in a payee name or memo printed as an extra line on the check. Every
// text field of every route (API bodies and panel forms) now refuses C0 controls (TAB, CR, LF
// included), DEL, C1 controls, U+2028/U+2029 and the bidi overrides and isolates, with a 422 that
// names the field, and writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUnsafeText, unsafeCharacter } from '../../src/domain/safe-text.ts';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { Visitor } from '../support/panel-visitor.ts';
import { snapshotTables } from '../support/table-snapshot.ts';

const REFUSED: readonly [string, string][] = [
  ['CR LF', 'Acme\r\nPAY TO THE ORDER OF Mallory'],
  ['LF', 'a\nb'],
  ['CR', 'a\rb'],
  ['TAB', 'a\tb'],
  ['ESC', 'a\u001b[31mb'],
  ['DEL', 'a\u007fb'],
  ['C1 NEL', 'a\u0085b'],
  ['C1 CSI', 'a\u009bb'],
  ['LINE SEPARATOR', 'a\u2028b'],
  ['PARAGRAPH SEPARATOR', 'a\u2029b'],
  ['RLO', 'invoice\u202Efdp.exe'],
  ['LRE', 'a\u202Ab'],
  ['PDF', 'a\u202Cb'],
  ['RLI', 'a\u2067b'],
  ['PDI', 'a\u2069b'],
];

const ALLOWED = [
  'Zoë Müller',
  'O’Brien & Sons, Inc.',
  '株式会社',
  'Café – 50% off',
  'a\u00a0b',
  'שלום',
  '😀 emoji',
  'a\u200fb',
];

describe('which characters are refused', () => {
  it('refuses every character of the decided set and nothing else', () => {
    const refused = (c: number): boolean =>
      c < 0x20 ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x2028 ||
      c === 0x2029 ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069);
    for (let c = 0; c <= 0xffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      expect(unsafeCharacter(`a${String.fromCharCode(c)}b`) !== null, `U+${c.toString(16)}`).toBe(refused(c));
    }
    for (const text of ALLOWED) expect(unsafeCharacter(text), text).toBeNull();
  });

  it('finds the path of the first bad string, and prefers a NUL anywhere', () => {
    expect(findUnsafeText({ a: [{ b: 'ok' }, { c: 'x\ny' }] })).toEqual({ path: 'a.1.c', kind: 'control' });
    expect(findUnsafeText({ a: 'x\ny', b: ['\u0000'] })).toEqual({ path: 'b.0', kind: 'nul' });
    expect(findUnsafeText({ 'bad\nkey': 1 })).toEqual({ path: 'bad\\u000akey', kind: 'control' });
    expect(findUnsafeText({ a: [[[]]], b: { c: { d: 'fine' } } })).toBeNull();
  });

  it('scans a deep value in linear time', () => {
    let value: unknown = 'x\n';
    for (let i = 0; i < 30_000; i++) value = [value];
    const started = performance.now();
    expect(findUnsafeText(value)?.kind).toBe('control');
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe.each(dialects())('control characters on %s', (dialect) => {
  let t: TestApp;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('controls@example.com');
    ids = await seedBasics(api);
  });
  afterAll(() => t.close());

  async function refusedWithoutWrites(
    send: () => Promise<{ status: number; body: unknown }>,
    message: string,
  ): Promise<void> {
    const before = await snapshotTables(t.database.db);
    const res = await send();
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, errorMsg: message });
    expect(await snapshotTables(t.database.db)).toEqual(before);
  }

  const controls = (field: string): string =>
    `The ${field} field must not contain control characters (line breaks, tabs, bidirectional overrides).`;

  it.each(REFUSED)(
    '%s in a payee name, a memo, an address, a bank name: 422 naming the field, nothing written',
    async (_label, text) => {
      await refusedWithoutWrites(
        () => api.post('/payees', { payees: [{ name: 'Fine' }, { name: text }] }),
        controls('payees.1.name'),
      );
      await refusedWithoutWrites(
        () => api.post('/checks', { checks: [{ ...ids, amount: 1, memo: text }] }),
        controls('checks.0.memo'),
      );
      await refusedWithoutWrites(
        () => api.put(`/payees/${ids.payeeId}`, { address1: text }),
        `Validation error: ${controls('address1')}`,
      );
      await refusedWithoutWrites(
        () =>
          api.post('/bankAccounts', {
            bankAccounts: [{ name: 'Ops', bankName: text, routingNumber: '011000015', accountNumber: '123456789' }],
          }),
        controls('bankAccounts.0.bankName'),
      );
      await refusedWithoutWrites(
        () =>
          api.post('/checks', { checks: [{ ...ids, amount: 1, voucher: { voucherItems: [{ description: text }] } }] }),
        controls('checks.0.voucher.voucherItems.0.description'),
      );
    },
  );

  it('a control character in a key is named with its code', async () => {
    await refusedWithoutWrites(
      () => api.post('/payees', { payees: [{ name: 'Fine', 'ni\nck': 'x' }] }),
      controls('payees.0.ni\\u000ack'),
    );
  });

  it('ordinary international text is accepted as before', async () => {
    for (const name of ALLOWED) {
      const res = await api.post('/payees', { payees: [{ name }] });
      expect(res.status, res.raw).toBe(201);
      expect(res.body.data.payees[0].name).toBe(name);
    }
  });

  it('panel forms refuse them too (sign-up company): 422 page naming the field, no account written', async () => {
    const visitor = new Visitor(t.app, '198.51.100.7');
    const before = await snapshotTables(t.database.db);
    const res = await visitor.submit('/panel/sign-up', '/panel/sign-up', {
      company: 'Acme\r\nBcc: everyone@example.com',
      email: 'new@example.com',
      phone: '+14155552671',
      password: 'a long enough password',
    });
    expect(res.status).toBe(422);
    expect(res.body).toContain('The company field must not contain control characters');
    const after = await snapshotTables(t.database.db);
    // Only the visitor's anonymous session (CSRF) may have been written: no account.
    expect(after.accounts).toEqual(before.accounts);
  });
});
