// Renders the sample check shown in the docs: a live-environment check with fictional data, then
// rasterises it with poppler. Run: node --import tsx test/render/render-sample.ts
// Needs pdftoppm (apt-get install poppler-utils). Writes docs/sample-check.png (and a PDF in /tmp).

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderCheckPdf } from '../../src/render/check-pdf.ts';
import { sampleCheck } from './support/fixtures.ts';
import { signaturePng } from './support/png.ts';

const check = sampleCheck({
  environment: process.argv[2] === 'test' ? 'test' : 'live',
  signature: { data: signaturePng() },
  customElements: {
    element1: 'Springfield Main Branch',
    element2: '70-2345/719',
    element5: 'VOID AFTER 180 DAYS',
    element7: 'Questions about this payment? ap@bluebird.example · (217) 555-0142',
  },
  voucher: {
    voucherNumber: 'V-7781',
    date: '2026-11-20',
    memo: 'Net 30',
    items: [
      {
        invoiceNumber: 'INV-2026-0415',
        name: 'Drip line repair',
        description: 'Zones 3 and 4, parts and labour',
        quantity: 1,
        unitCostCents: 84000,
        totalCents: 84000,
      },
      {
        invoiceNumber: 'INV-2026-0416',
        name: 'Smart controller',
        description: '12 zones, installed',
        quantity: 2,
        unitCostCents: 19728,
        totalCents: 39456,
      },
    ],
  },
});

const pdfPath = join(tmpdir(), 'sample-check.pdf');
writeFileSync(pdfPath, await renderCheckPdf(check));
execFileSync('pdftoppm', ['-png', '-r', '100', '-singlefile', pdfPath, 'docs/sample-check']);
console.log(`wrote docs/sample-check.png (PDF: ${pdfPath})`);
