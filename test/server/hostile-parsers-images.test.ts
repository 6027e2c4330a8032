// Issue 22, item 4: the image rows of the parser table (docs/security.md), with the table's own
// assertions — /healthz within 100 ms throughout (probed from a worker thread), memory bounded,
// time linear in the size, an 8 MB upload refused — on a real server process, both databases.
// Images are decoded by libvips through sharp with a pixel cap read from the header, and stored as
// a PNG we wrote (services/normalize-image.ts). Before: a 93-byte PNG with two IHDR chunks made the
// decoder allocate 12000×12000×4 (8 s, 647 MB) and was stored; a 16-bit PNG was stored undecoded
// and stalled every PDF of its bank account ~1 s; a 41-byte JPEG declaring 65535×65535 was stored
// and embedded as is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import { jpegClaiming, png16Bit, pngTwoHeaders } from '../support/hostile-inputs.ts';
import { HttpVisitor } from '../support/http-visitor.ts';
import { createKeyWithCli, http, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { rawRequest } from '../support/raw-http.ts';
import {
  DOUBLING_RATIO,
  doubling,
  expectErrorShape,
  HealthProbe,
  hostileRow,
  NOISE_FLOOR_MS,
} from '../support/responsiveness.ts';
import { signaturePng } from '../render/support/png.ts';

const MiB = 1024 * 1024;

interface Answer {
  status: number;
  text: string;
}

describe.each(dialects())('image parsers on a server process (%s)', { timeout: 300_000 }, (dialect) => {
  let server: ServerProcess;
  let probe: HealthProbe;
  let cleanup: () => Promise<void>;
  let key = '';
  let api = '';
  let panel: HttpVisitor;

  // Each row its own real account: the same number twice is one account (a duplicate, refused).
  let accounts = 0;
  const bankAccount = async (name: string): Promise<string> => {
    accounts += 1;
    const bank = await http(`${api}/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name, routingNumber: '011000015', accountNumber: String(123456700 + accounts) }] },
    });
    expect(bank.status).toBe(201);
    return bank.body.data.bankAccounts[0].bankAccountId;
  };
  const putSignature = async (bankAccountId: string, bytes: Buffer, type: string): Promise<Answer> => {
    const response = await fetch(`${api}/bankAccounts/${bankAccountId}/signature`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': type },
      body: new Uint8Array(bytes),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: response.status, text: await response.text() };
  };
  const refusedInShape = (answer: Answer, status: number): void => {
    expect(answer.status, answer.text.slice(0, 300)).toBe(status);
    expectErrorShape(answer.status, answer.text);
  };

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    cleanup = fresh.cleanup;
    server = await startServerProcess(fresh.env);
    key = await createKeyWithCli('hostile-images@example.com', fresh.env);
    api = `${server.url}/api/v3`;
    panel = new HttpVisitor(server.url);
    await panel.signUp('hostile-images-panel@example.com');
    probe = await HealthProbe.start(server.url);
  }, 120_000);
  afterAll(async () => {
    await probe?.close();
    await server?.stop();
    await cleanup?.();
  });

  it('a PNG with two IHDR chunks (1×1, then 12000×12000) is refused (422) without decoding 576 MB; nothing is stored', async () => {
    const bankAccountId = await bankAccount('Two headers');
    const png = pngTwoHeaders();
    expect(png.length).toBe(93);
    await hostileRow(
      server,
      probe,
      `signature, two IHDR chunks (${dialect})`,
      async () => {
        const answer = await putSignature(bankAccountId, png, 'image/png');
        refusedInShape(answer, 422);
        return answer.status;
      },
      { maxGrowthMb: 100 },
    );
    const read = await http(`${api}/bankAccounts/${bankAccountId}`, { key });
    expect(JSON.stringify(read.body)).not.toMatch(/"hasSignature":true/);
  });

  it('a 41-byte JPEG declaring 65535×65535 is refused (422)', async () => {
    const bankAccountId = await bankAccount('Huge JPEG');
    const jpeg = jpegClaiming();
    expect(jpeg.length).toBe(41);
    await hostileRow(
      server,
      probe,
      `signature, 41-byte JPEG of 65535x65535 (${dialect})`,
      async () => {
        const answer = await putSignature(bankAccountId, jpeg, 'image/jpeg');
        refusedInShape(answer, 422);
        return answer.status;
      },
      { maxGrowthMb: 100 },
    );
  });

  it('a 16-bit PNG is stored as an image we wrote: the check PDFs of its bank account render without stalling the server', async () => {
    const bankAccountId = await bankAccount('Sixteen bits');
    await hostileRow(server, probe, `signature, 16-bit PNG 1200x300 (${dialect})`, async () => {
      const answer = await putSignature(bankAccountId, png16Bit(1200, 300), 'image/png');
      expect(answer.status, answer.text.slice(0, 300)).toBe(200);
      return answer.status;
    });
    const payee = await http(`${api}/payees`, { method: 'POST', key, body: { payees: [{ name: 'Payee' }] } });
    const check = await http(`${api}/checks`, {
      method: 'POST',
      key,
      body: { checks: [{ bankAccountId, payeeId: payee.body.data.payees[0].payeeId, amount: 12.34 }] },
    });
    const checkId = check.body.data.checks[0].checkId;
    await hostileRow(server, probe, `the PDF of a check signed with it (${dialect})`, async () => {
      const response = await fetch(`${api}/checks/${checkId}/pdf`, { headers: { authorization: `Bearer ${key}` } });
      const pdf = Buffer.from(await response.arrayBuffer());
      expect(response.status).toBe(200);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      return response.status;
    });
  });

  it('decoding scales with the pixels: a signature of N and 2N pixels', async () => {
    const bankAccountId = await bankAccount('Scaling');
    const small = signaturePng(1600, 400);
    const large = signaturePng(3200, 400);
    const d = await doubling(async (scale) => {
      const answer = await putSignature(bankAccountId, scale === 1 ? small : large, 'image/png');
      expect(answer.status, answer.text.slice(0, 200)).toBe(200);
    });
    console.log(
      `signature decode (${dialect}): N ${d.smallMs.toFixed(0)} ms, 2N ${d.largeMs.toFixed(0)} ms, ratio ${d.ratio.toFixed(2)}`,
    );
    expect(d.largeMs).toBeLessThanOrEqual(DOUBLING_RATIO * d.smallMs + NOISE_FLOOR_MS);
  });

  it('an 8 MB image is a 413 at once; the panel’s logo upload refuses the two-IHDR PNG and 8 MB too', async () => {
    const bankAccountId = await bankAccount('Eight megabytes');
    await hostileRow(server, probe, `signature, 8 MB (${dialect})`, async () => {
      const body = Buffer.concat([pngTwoHeaders(), Buffer.alloc(8 * MiB)]);
      const answer = await rawRequest(
        server.url,
        [
          `PUT /api/v3/bankAccounts/${bankAccountId}/signature HTTP/1.1`,
          'Host: x',
          `Authorization: Bearer ${key}`,
          'Content-Type: image/png',
          `Content-Length: ${body.length}`,
          'Connection: close',
        ].join('\r\n'),
        body,
        { timeoutMs: 60_000, waitForEarlyAnswerMs: 300 },
      );
      refusedInShape(answer, 413);
      return answer.status;
    });
    await hostileRow(
      server,
      probe,
      `panel logo, two IHDR chunks (${dialect})`,
      async () => {
        const answer = await panel.upload(
          '/panel/settings',
          '/panel/settings/logo',
          {},
          {
            name: 'logo.png',
            type: 'image/png',
            bytes: pngTwoHeaders(),
          },
        );
        expect(answer.status).toBe(422);
        return answer.status;
      },
      { maxGrowthMb: 100 },
    );
    await hostileRow(server, probe, `panel logo, 8 MB (${dialect})`, async () => {
      const answer = await panel.upload(
        '/panel/settings',
        '/panel/settings/logo',
        {},
        { name: 'logo.png', type: 'image/png', bytes: Buffer.concat([pngTwoHeaders(), Buffer.alloc(8 * MiB)]) },
      );
      expect(answer.status).toBe(413);
      return answer.status;
    });
  });
});
