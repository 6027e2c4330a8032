// What the panel's Chromium tests share: a server process on a fresh database with a browser page
// pointed at it, signing up and in through the panel's own forms, a test key made on /panel/keys,
// screenshots, and the accessibility and phone-width checks. Each test keeps its own assertions.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { freePort, launchChromium } from './browser.ts';
import { freshDatabaseConfig, type TestDialect } from './databases.ts';
import { startServerProcess, type ServerProcess } from './processes.ts';

export interface PanelInBrowser {
  /** The server's origin, e.g. http://127.0.0.1:41234 (also its PUBLIC_URL). */
  base: string;
  /** Variables that point a child process (the CLI) at the server's database. */
  env: Record<string, string>;
  server: ServerProcess;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Closes the browser, stops the server and drops the database. */
  close: () => Promise<void>;
}

/**
 * A `checkwriter serve` process on a fresh database of `dialect`, on a free port (its links need
 * PUBLIC_URL to name the real port up front), and one Chromium page in a context made with
 * `contextOptions`. `serverEnv` adds to the server's environment (mail peers, poll intervals).
 */
export async function startPanelInBrowser(
  dialect: TestDialect,
  contextOptions: BrowserContextOptions,
  serverEnv: Record<string, string> = {},
): Promise<PanelInBrowser> {
  const fresh = await freshDatabaseConfig(dialect);
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    await browser?.close();
    await server?.stop();
    await fresh.cleanup();
  };
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = await startServerProcess({ ...fresh.env, PORT: String(port), PUBLIC_URL: base, ...serverEnv });
    browser = await launchChromium();
    const context = await browser.newContext(contextOptions);
    const page = await context.newPage();
    return { base, env: fresh.env, server, browser, context, page, close };
  } catch (error) {
    // Nothing half-started is left behind: the caller's afterAll has no handle to close yet.
    await close();
    throw error;
  }
}

export interface PanelOwner {
  company: string;
  email: string;
  phone: string;
  password: string;
}

/** Signs up through /panel/sign-up, which signs nobody in, then signs in on the page it leads to. */
export async function signUpAndIn(page: Page, base: string, owner: PanelOwner): Promise<void> {
  await page.goto(`${base}/panel/sign-up`);
  await page.getByLabel('Company name').fill(owner.company);
  await page.getByLabel(/^Email/).fill(owner.email);
  await page.getByLabel(/^Mobile phone/).fill(owner.phone);
  await page.getByLabel(/^Password/).fill(owner.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/panel\/sign-in\?notice=signed-up$/);
  await signIn(page, owner.email, owner.password);
}

/** Fills in and submits the sign-in form the page shows, and waits for the panel's home. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/panel$/);
}

/** Creates a test-environment key named `name` on /panel/keys and returns it (shown only once). */
export async function createTestKey(page: Page, base: string, name: string): Promise<string> {
  await page.goto(`${base}/panel/keys`);
  await page.getByLabel(/Name/).fill(name);
  await page.getByLabel('Environment').selectOption('test');
  await page.getByRole('button', { name: 'Create key' }).click();
  return ((await page.textContent('#new-key')) ?? '').trim();
}

/** The outerHTML of each visible form control without a label a screen reader can announce. */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.$$eval('input:not([type=hidden]), select, textarea', (controls) =>
    controls
      .filter((c) => (c as HTMLInputElement).labels?.length === 0 && c.getAttribute('aria-label') === null)
      .map((c) => c.outerHTML),
  );
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe-core's WCAG 2.1 A and AA rules on the page as it is, each violation as "id (help): target".
 * axe is evaluated through the browser's debugging protocol, which the pages' CSP does not govern
 * (a script tag would be refused), so the page is tested with its real policy.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    return (await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] })).violations;
  });
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.help}): ${JSON.stringify(n.target)}`));
}

/** The screen the phone checks use: a 390-px-wide phone. */
export const PHONE_VIEWPORT = { width: 390, height: 844 };

/** Whether nothing on the page is wider than the window (no sideways scrolling). */
export function fitsWindow(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/**
 * Where a test file's screenshots go: SCREENSHOT_DIR (docs/panel when refreshing the README's
 * pictures) or else a temporary folder, removed by `discard`.
 */
export class ScreenshotFolder {
  readonly path: string;

  constructor(temporaryPrefix: string) {
    this.path = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), temporaryPrefix));
  }

  /** Writes `<name>.png`, the whole page unless `fullPage` is false. */
  async take(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
    // Made again each time: one dialect's afterAll may have removed the temporary folder already.
    mkdirSync(this.path, { recursive: true });
    await page.screenshot({ path: join(this.path, `${name}.png`), fullPage: options.fullPage ?? true });
  }

  /** Removes the temporary folder; pictures asked for with SCREENSHOT_DIR are kept. */
  discard(): void {
    if (process.env.SCREENSHOT_DIR === undefined) rmSync(this.path, { recursive: true, force: true });
  }
}
