// Migration 018 on a database holding images stored before uploads were normalized, as the old
// server kept them (the uploaded bytes): every one is written again by libvips or, when it cannot
// be read, removed — and the checks still print, with the signature where there was a good one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.ts';
import { type ParsedPage, parsePdf } from '../render/support/pdf.ts';
import { TINY_JPEG } from '../render/support/jpeg.ts';
import { signaturePng } from '../render/support/png.ts';
import { BASE, type Client, seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import {
  chunksNotWritten,
  jpegClaiming,
  pngHeaderSize,
  pngWithMetadata,
  twoIhdrPng,
  withExifOrientation,
} from '../support/hostile-images.ts';

const IN = 72;

describe.each(dialects())('migration 018: images stored before normalization (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('images-upgrade@example.com');
  });
  afterAll(() => t.close());

  // Each its own real account: the same number twice is one account (a duplicate, refused).
  let accounts = 0;
  const newBankAccount = async (name: string): Promise<string> => {
    accounts += 1;
    const accountNumber = String(123456700 + accounts);
    const made = await api.post('/bankAccounts', {
      bankAccounts: [{ name, bankName: 'First Test Bank', routingNumber: '011000015', accountNumber }],
    });
    expect(made.status, made.raw).toBe(201);
    return made.body.data.bankAccounts[0].bankAccountId as string;
  };

  const stored = async (table: 'bank_accounts' | 'accounts', column: 'signature' | 'logo', id: string) => {
    const row = await t.database.db.get<{ image: Uint8Array | null }>(
      `SELECT ${column} AS image FROM ${table} WHERE id = ?`,
      [id],
    );
    return row?.image === null || row?.image === undefined ? null : Buffer.from(row.image);
  };

  const checkPdf = async (bankAccountId: string, payeeId: string): Promise<ParsedPage> => {
    const made = await api.post('/checks', { checks: [{ bankAccountId, payeeId, amount: 12.5 }] });
    expect(made.status, made.raw).toBe(201);
    const res = await t.app.inject({
      method: 'GET',
      url: `${BASE}/checks/${made.body.data.checks[0].checkId}/pdf`,
      headers: { authorization: `Bearer ${api.key}` },
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const [page] = await parsePdf(res.rawPayload);
    if (page === undefined) throw new Error('no page');
    return page;
  };

  /** Images drawn in the signature area (right of 5.4 in, the band above the signature line). */
  const signaturesOn = (page: ParsedPage) =>
    page.images.filter((b) => b.x1 >= 5.4 * IN && b.y1 >= page.height - 2.6 * IN && b.y2 <= page.height - 2.0 * IN);
  /** Images drawn in the logo corner (top left). */
  const logosOn = (page: ParsedPage) => page.images.filter((b) => b.x2 <= 1.4 * IN && b.y1 >= page.height - 0.8 * IN);

  it('writes good images again (print-sized, no metadata), removes unreadable ones, and checks still print', async () => {
    const { payeeId } = await seedBasics(api);
    const good = await newBankAccount('Good old images');
    const hostile = await newBankAccount('Two headers');
    const sixteen = await newBankAccount('Two headers, 16-bit');
    const lyingJpeg = await newBankAccount('JPEG that only claims a size');
    const turned = await newBankAccount('Turned JPEG');
    const { accountId } = await t.principal('images-upgrade@example.com');

    // As the server before 018 stored them: the uploaded bytes, unchanged.
    const bigSignature = signaturePng(1800, 450);
    const old: Array<[string, string, string, Buffer]> = [
      ['bank_accounts', 'signature', good, bigSignature],
      ['bank_accounts', 'logo', good, signaturePng(600, 300)],
      ['bank_accounts', 'signature', hostile, twoIhdrPng()],
      ['bank_accounts', 'logo', hostile, Buffer.from('GIF89a not even a GIF')],
      ['bank_accounts', 'signature', sixteen, twoIhdrPng(12000, 12000, 16)],
      ['bank_accounts', 'signature', lyingJpeg, jpegClaiming()],
      ['bank_accounts', 'signature', turned, withExifOrientation(TINY_JPEG, 6)],
      ['accounts', 'logo', accountId, pngWithMetadata(400, 200)],
    ];
    for (const [table, column, id, bytes] of old)
      await t.database.db.run(`UPDATE ${table} SET ${column} = ? WHERE id = ?`, [bytes, id]);

    // The database as 017 left it (018 changes no schema), then the upgrade as a server start runs it.
    await t.database.db.run('DELETE FROM schema_migrations WHERE id = 18');
    const started = performance.now();
    expect(await migrate(t.database.db)).toEqual([18]);
    const ms = performance.now() - started;
    // Eight images, three of them hostile: seconds would mean a decoder allocated what a header claimed.
    expect(ms).toBeLessThan(10_000);

    const goodSignature = await stored('bank_accounts', 'signature', good);
    const goodLogo = await stored('bank_accounts', 'logo', good);
    const turnedSignature = await stored('bank_accounts', 'signature', turned);
    const accountLogo = await stored('accounts', 'logo', accountId);
    for (const image of [goodSignature, goodLogo, turnedSignature, accountLogo]) {
      if (image === null) throw new Error('a good image was removed');
      expect(chunksNotWritten(image)).toEqual([]);
      expect(image[24]).toBe(8);
    }
    expect(pngHeaderSize(goodSignature ?? Buffer.alloc(24))).toEqual({ width: 644, height: 161 });
    expect(pngHeaderSize(goodLogo ?? Buffer.alloc(24))).toEqual({ width: 240, height: 120 });
    expect(pngHeaderSize(turnedSignature ?? Buffer.alloc(24))).toEqual({ width: 6, height: 56 });
    expect(pngHeaderSize(accountLogo ?? Buffer.alloc(24))).toEqual({ width: 240, height: 120 });
    expect(accountLogo?.includes(Buffer.from('<script>'))).toBe(false);

    for (const id of [hostile, sixteen, lyingJpeg]) {
      expect(await stored('bank_accounts', 'signature', id)).toBeNull();
      expect((await api.get(`/bankAccounts/${id}`)).body.data.hasSignature).toBe(false);
    }
    expect(await stored('bank_accounts', 'logo', hostile)).toBeNull();

    // The good bank account's check: its signature above the line, its own logo top left.
    const signed = await checkPdf(good, payeeId);
    expect(signaturesOn(signed)).toHaveLength(1);
    expect(logosOn(signed)).toHaveLength(1);
    // The hostile one's check prints, unsigned, with the account's (normalized) logo.
    const unsigned = await checkPdf(hostile, payeeId);
    expect(signaturesOn(unsigned)).toHaveLength(0);
    expect(logosOn(unsigned)).toHaveLength(1);

    // Running it again changes nothing that matters: the images are already the server's own.
    await t.database.db.run('DELETE FROM schema_migrations WHERE id = 18');
    expect(await migrate(t.database.db)).toEqual([18]);
    expect(pngHeaderSize((await stored('bank_accounts', 'signature', good)) ?? Buffer.alloc(24))).toEqual({
      width: 644,
      height: 161,
    });
  });
});
