// GET and HEAD change nothing, anywhere: every GET route of the API's OpenAPI
// document, and the payee pages, are fetched with both methods over an account holding one of
// everything; every row of every table reads the same afterwards. Mail scanners and link
// previewers fetch links with GET and HEAD, so the payee's download is a POST (the page's button)
// and the old download URL only points back to the page. The payee pages carry the panel's
// hardening headers and send no Referer (the token is in the URL).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payeeLinkToken } from '../support/links.ts';
import { BASE, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

describe.each(dialects())('safe methods change nothing (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  const ids: Record<string, string> = {};
  let token = '';

  /** Every row of every table, in a stable order. `api_keys.last_used_at` is the key's access log, not state. */
  async function everything(): Promise<Record<string, unknown[]>> {
    const db = t.database.db;
    const tables =
      db.dialect === 'sqlite'
        ? await db.all<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
          )
        : await db.all<{ name: string }>(
            'SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename',
          );
    expect(tables.map((row) => row.name)).toContain('checks');
    const out: Record<string, unknown[]> = {};
    for (const { name } of tables) {
      const rows = await db.all<Record<string, unknown>>(`SELECT * FROM ${name}`);
      out[name] = rows
        .map((row) =>
          JSON.stringify(name === 'api_keys' ? { ...row, last_used_at: null } : row, (_k, v: unknown) =>
            typeof v === 'bigint' ? String(v) : v,
          ),
        )
        .sort();
    }
    return out;
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('safe@example.com');
    const basics = await seedBasics(api);
    ids.bankAccountId = basics.bankAccountId;
    ids.payeeId = basics.payeeId;
    const check = await api.post('/checks', {
      checks: [
        {
          bankAccountId: basics.bankAccountId,
          payeeId: basics.payeeId,
          amount: '12.34',
          memo: 'Safe',
          voucher: {
            voucherNumber: 'V-1',
            date: '2026-11-01',
            memo: 'Parts',
            voucherItems: [{ invoiceNumber: 'A1', description: 'Bolts', quantity: 2, unitCost: '2.50', total: 5 }],
          },
        },
      ],
    });
    expect(check.status).toBe(201);
    ids.checkId = check.body.data.checks[0].checkId;
    const from = await api.post('/customFromAddresses', {
      addresses: [{ name: 'Office', addressLine1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' }],
    });
    expect(from.status).toBe(201);
    ids.customFromAddressId = from.body.data.addresses[0].customFromAddressId;
    // The hosted service's reads: a voucher of its own, a 'to' address, an attachment.
    const voucher = await api.post('/vouchers', { voucherNumber: 'V-9', payeeId: basics.payeeId });
    expect(voucher.status).toBe(201);
    ids.voucherId = voucher.body.data.voucherId;
    const to = await api.post('/customToAddresses', { name: 'Safe To' });
    expect(to.status).toBe(201);
    ids.customToAddressId = to.body.data.customToAddressId;
    const boundary = 'safeboundary';
    const attached = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/${ids.checkId}/attachments`,
      headers: { authorization: `Bearer ${api.key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n%%EOF\n\r\n--${boundary}--\r\n`,
    });
    expect(attached.statusCode, attached.body).toBe(201);
    ids.attachmentId = JSON.parse(attached.body).data.attachmentId;
    const hook = await api.post('/webhooks', { url: 'https://example.com/hooks/checkwriter' });
    expect(hook.status).toBe(201);
    ids.webhookId = hook.body.data.webhookId;
    const exported = await api.post('/positive-pay-exports', {
      bankAccountId: basics.bankAccountId,
      from: '2026-11-01',
      to: '2026-11-30',
      format: 'csv',
    });
    expect(exported.status).toBe(201);
    ids.positivePayExportId = exported.body.data.positivePayExport.positivePayExportId;
    expect((await api.post('/emailchecks', { emailChecks: [{ checkId: ids.checkId }] })).status).toBe(200);
    const delivery = await t.database.db.get<{ id: string }>(
      "SELECT id FROM deliveries WHERE check_id = ? AND channel = 'email'",
      [ids.checkId ?? ''],
    );
    token = await payeeLinkToken(t, delivery?.id ?? '');
    const imported = await api.post('/imports', { type: 'payees', csv: 'Name\nImported Payee\n' });
    expect(imported.status).toBe(202);
    ids.importId = imported.body.data.importId;
    // Finished before the GETs run: the background runner must not write while tables are compared.
    for (let i = 0; i < 200; i++) {
      if ((await api.get(`/imports/${ids.importId}`)).body.data.state === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 25));
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('every GET route of the API and the payee pages, with GET and HEAD, leaves every table as it was', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: `${BASE}/openapi.json` })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const urls = Object.entries(doc.paths)
      .filter(([, operations]) => 'get' in operations)
      .map(([path]) =>
        `${BASE}${path}`.replace(/\{(\w+)\}/g, (_m, name: string) => {
          const id = ids[name];
          if (id === undefined)
            throw new Error(`no seeded id for {${name}} in ${path}: seed one so the route is covered`);
          return id;
        }),
      );
    expect(urls.length).toBeGreaterThanOrEqual(19);
    urls.push(`/c/${token}`, `/c/${token}/pdf`);
    const before = await everything();
    for (const url of urls) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url, headers: { authorization: `Bearer ${api.key}` } });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(400);
      }
    }
    expect(await everything()).toEqual(before);
  });

  it('the payee download is the page button (POST); GET and HEAD of the old download URL lead back to the page', async () => {
    const status = async () => (await api.get(`/checks/${ids.checkId}`)).body.data.checkStatus.description as string;
    expect(await status()).toBe('Emailed');
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url: `/c/${token}/pdf` });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/c/${token}`);
    }
    expect(await status()).toBe('Emailed');
    const pageHtml = (await t.app.inject({ method: 'GET', url: `/c/${token}` })).body;
    expect(pageHtml).toContain(`<form method="post" action="/c/${token}/pdf">`);
    // What a browser sends for a form with no fields.
    const download = await t.app.inject({
      method: 'POST',
      url: `/c/${token}/pdf`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await status()).toBe('E-Printed');
  });

  it('payee pages, their problems and the PDF carry the hardening headers and no Referer', async () => {
    const page = await t.app.inject({ method: 'GET', url: `/c/${token}` });
    const missing = await t.app.inject({ method: 'GET', url: '/c/no-such-link' });
    const pdf = await t.app.inject({ method: 'POST', url: `/c/${token}/pdf` });
    expect(missing.statusCode).toBe(404);
    for (const res of [page, missing, pdf]) {
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
    }
    // The CSP's hash is the hash of the stylesheet the page holds (else a browser drops the style).
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.body)?.[1] ?? '';
    expect(style.length).toBeGreaterThan(100);
    expect(String(page.headers['content-security-policy'])).toContain(
      `'sha256-${createHash('sha256').update(style).digest('base64')}'`,
    );
  });
});
