// Render throughput, measured outside the test suite (timed unit tests are flaky; see the
// architecture guide). Run: node --import tsx test/render/measure-speed.ts [count]
// Reports checks per second for one-check PDFs (renderCheckPdf) and for one 100-check PDF batch.
// The signature is what the server stores for an upload: the scribble normalized by
// services/normalize-image.ts (print-sized, 8-bit RGBA PNG written by libvips).

import { renderCheckPdf, renderChecksPdf } from '../../src/render/check-pdf.ts';
import { sampleCheck } from './support/fixtures.ts';
import { isRefusal, normalizeImage } from '../../src/services/normalize-image.ts';
import { signaturePng } from './support/png.ts';

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? '1000');
  const stored = await normalizeImage(signaturePng(1440, 322), 'signature');
  if (isRefusal(stored)) throw new Error(stored.rule);
  console.log(`signature as stored: ${stored.width}x${stored.height} RGBA PNG, ${stored.png.length} bytes`);
  const signature = { data: stored.png };
  const plain = sampleCheck();
  const signed = sampleCheck({ signature, customElements: { element1: 'Main Street Branch', element7: 'Thank you' } });

  // Warm up the JIT and module caches so the numbers reflect steady state.
  for (let i = 0; i < 50; i += 1) await renderCheckPdf(plain);

  // Wall-clock rate, and the rate per CPU-second of this process, which is what one core can do even
  // when other processes compete for the machine.
  const time = async (label: string, checks: number, run: () => Promise<unknown>): Promise<void> => {
    const start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    await run();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const cpu = process.cpuUsage(cpuStart);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    console.log(
      `${label.padEnd(34)} ${(checks / seconds).toFixed(0).padStart(5)} checks/s wall, ` +
        `${(checks / cpuSeconds).toFixed(0).padStart(5)} per CPU-second (${checks} in ${seconds.toFixed(2)} s)`,
    );
  };

  await time('renderCheckPdf, no signature', count, async () => {
    for (let i = 0; i < count; i += 1) await renderCheckPdf({ ...plain, checkNumber: String(10001 + i) });
  });
  await time('renderCheckPdf, PNG signature', count, async () => {
    for (let i = 0; i < count; i += 1) await renderCheckPdf({ ...signed, checkNumber: String(10001 + i) });
  });
  const batch = Array.from({ length: 100 }, (_, i) => ({ ...signed, checkNumber: String(10001 + i) }));
  await time('renderChecksPdf, 100 per PDF', count, async () => {
    for (let i = 0; i < count / 100; i += 1) await renderChecksPdf(batch);
  });
}

await main();
