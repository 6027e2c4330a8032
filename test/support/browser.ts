// Headless Chromium for the panel's end-to-end tests: Debian's `chromium` package driven by
// playwright-core (no browser download). Where Chromium is missing the browser tests are skipped
// with a note, except in CI (CI=true), where a missing browser is a failure.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { requiredInCiElseSkipped } from './optional-tool.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  return requiredInCiElseSkipped(
    existsSync(CHROMIUM_PATH),
    `Chromium (${CHROMIUM_PATH})`,
    'apt-get install -y chromium, or set CHROMIUM_PATH',
  );
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // Without the background-networking flags Chromium keeps dialling Google's hosts, which this
    // machine's closed network refuses.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** A free loopback port (the server's links need PUBLIC_URL to name its real port up front). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
