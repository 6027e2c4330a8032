// Check PDFs rendered per second in one process (the issue's "single process" figure): the
// renderer alone, on a signed check with a voucher, one PDF per check and 100 checks in one PDF.
// Then the server's batch print route, POST /checks/print with 500 checks (the most one request may
// name), timed once, with the server's peak memory while it reads, renders and marks them printed.
import { renderCheckPdf, renderChecksPdf } from '../../src/render/check-pdf.ts';
import type { CheckDocument } from '../../src/render/check-document.ts';
import { createAccount, createBasics } from '../fixtures.ts';
import { HttpClient } from '../http-client.ts';
import { type PeakRss, rssVerdict, withPeakRss } from '../memory.ts';
import { fmt, type ScenarioContext, type ScenarioOutcome, type Verdict } from '../scenario.ts';

export const PDF_TARGET_PER_SEC = 200;

/** POST /checks/print takes at most this many checks (MAX_BATCH in src/schemas/common.ts). */
const PRINT_CHECKS = 500;

export interface PdfDetails {
  singlePerSec: number;
  batchPerSec: number;
  bytesPerCheck: number;
  print: { checks: number; ms: number; peakRss: PeakRss | null };
}

interface CreatedReply {
  data: { checks: { checkId: string }[] };
}

/** 500 new checks, then one POST /checks/print naming them all: one PDF, each check now printed. */
async function printBatch(ctx: ScenarioContext): Promise<PdfDetails['print']> {
  const { key } = await createAccount(ctx.database, 'print@bench.test');
  const client = new HttpClient(ctx.serverUrl, key);
  try {
    const basics = await createBasics(client, ['Harper & Lowe Irrigation Co.', 'Blue Harbor Freight']);
    const created = await client.json<CreatedReply>('POST', '/checks', 201, {
      checks: Array.from({ length: PRINT_CHECKS }, (_, i) => ({
        bankAccountId: basics.bankAccountId,
        payeeId: basics.payees[i % basics.payees.length]?.id,
        amount: (((i * 7919) % 500_000) / 100 + 1).toFixed(2),
        memo: 'October irrigation repairs',
        invoiceNumber: `INV-${i}`,
      })),
    });
    const checkIds = created.data.checks.map((c) => c.checkId);
    const { result: reply, peak } = await withPeakRss(ctx.serverPid, () =>
      client.send('POST', '/checks/print', { checkIds }),
    );
    if (reply.status !== 200 || !reply.contentType.startsWith('application/pdf'))
      throw new Error(`POST /checks/print: ${reply.status} ${reply.contentType} ${reply.body.slice(0, 300)}`);
    return { checks: checkIds.length, ms: reply.ms, peakRss: peak };
  } finally {
    client.close();
  }
}

function sample(i: number): CheckDocument {
  return {
    environment: 'live',
    from: { name: 'Bluebird Garden Supply LLC', addressLines: ['1200 Orchard Lane, Suite 4', 'Springfield, IL 62704'] },
    bankName: 'First Prairie Community Bank',
    routingNumber: '011000015',
    accountNumber: '123456789',
    checkNumber: String(10001 + i),
    issueDate: '2026-11-21',
    payee: { name: 'Harper & Lowe Irrigation Co.', addressLines: ['88 Riverside Drive', 'Peoria, IL 61602'] },
    amountCents: 123456 + i,
    memo: 'October irrigation repairs',
    invoiceNumber: `INV-${i}`,
    signature: null,
    customElements: { element1: 'Dept 7' },
    noSign: false,
    noAmount: false,
    noDate: false,
    noPayee: false,
    voucher: {
      voucherNumber: 'V-7781',
      date: '2026-11-20',
      memo: 'Net 30',
      items: [
        {
          invoiceNumber: 'INV-0415',
          name: 'Drip line',
          description: 'Drip line repair, zones 3 and 4',
          quantity: 1,
          unitCostCents: 84000,
          totalCents: 84000,
        },
        {
          invoiceNumber: 'INV-0416',
          name: 'Controller',
          description: 'Smart controller, 12 zones',
          quantity: 2,
          unitCostCents: 19728,
          totalCents: 39456 + i,
        },
      ],
    },
  };
}

/** Checks rendered per second by `once` (which answers how many it rendered), after a warm-up. */
async function rate(seconds: number, once: (i: number) => Promise<number>): Promise<number> {
  for (let i = 0; i < 20; i += 1) await once(i);
  const start = performance.now();
  const end = start + seconds * 1000;
  let checks = 0;
  for (let i = 0; performance.now() < end; i += 1) checks += await once(i);
  return checks / ((performance.now() - start) / 1000);
}

export async function runPdf(ctx: ScenarioContext): Promise<ScenarioOutcome<PdfDetails>> {
  const seconds = Math.max(2, Math.round(ctx.options.duration / 2));
  let lastSize = 0;
  const single = await rate(seconds, async (i) => {
    lastSize = (await renderCheckPdf(sample(i))).length;
    return 1;
  });
  const batchDocs = Array.from({ length: 100 }, (_, i) => sample(i));
  const batch = await rate(seconds, async () => {
    await renderChecksPdf(batchDocs);
    return 100;
  });
  const print = await printBatch(ctx);
  const printVerdicts: Verdict[] = [
    {
      scenario: `print: POST /checks/print, ${fmt(print.checks)} checks in one PDF (server)`,
      measured: `${fmt(print.ms / 1000, 2)} s (${fmt(print.checks / (print.ms / 1000))} checks/s)`,
      target: 'reported',
      pass: null,
    },
    rssVerdict(`POST /checks/print of ${fmt(print.checks)} checks`, print.peakRss),
  ];
  return {
    details: { singlePerSec: single, batchPerSec: batch, bytesPerCheck: lastSize, print },
    verdicts: [
      {
        scenario: 'PDF: one check per PDF (one process)',
        measured: `${fmt(single)} checks/s, ${fmt(lastSize / 1024, 1)} KiB each`,
        target: `≥ ${PDF_TARGET_PER_SEC} checks/s`,
        pass: single >= PDF_TARGET_PER_SEC,
      },
      {
        scenario: 'PDF: 100 checks per PDF (one process)',
        measured: `${fmt(batch)} checks/s`,
        target: 'reported',
        pass: null,
      },
      ...printVerdicts,
    ],
  };
}
