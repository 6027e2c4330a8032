// What a start costs: the heavy-work pool starts no worker thread until heavy work is asked for,
// and a process loads no module its command does not use (the PDF and image libraries, the mail
// transport, the passkey library, the PostgreSQL driver on SQLite...) before it is needed. Counts
// and module lists, never times: the times are the bench's (`npm run bench -- --only startup,keys`).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: bin/ is plain JavaScript without declarations
import { compiled, distIsCurrent, root } from '../../bin/dist-state.js';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { InlineHeavyWork } from '../../src/heavy-work/inline.ts';
import { PiscinaHeavyWork } from '../../src/heavy-work/piscina-pool.ts';
import { ApiKeys } from '../../src/services/api-key.service.ts';
import { freshDatabase, type TestDatabase } from '../support/databases.ts';
import { requiredInCiElseSkipped } from '../support/optional-tool.ts';
import { createKeyWithCli, runCli, startServerProcess } from '../support/processes.ts';

/** The operating system's threads of this process (Linux), an account independent of the pool's own. */
function osThreads(): number {
  return readdirSync('/proc/self/task').length;
}

/**
 * A preload for a child process that writes down every module it loads into `file`: ES modules as
 * the loader resolves them (a hook) and CommonJS ones from require's cache, at exit.
 */
function recordingOptions(file: string): string {
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  appendFileSync(${JSON.stringify(file)}, found.url + '\\n');
  return found;
}`;
  const preload = `import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));
const cache = createRequire('/index.js').cache;
process.on('exit', () => appendFileSync(${JSON.stringify(file)}, Object.keys(cache).join('\\n') + '\\n'));`;
  return `--import=data:text/javascript,${encodeURIComponent(preload)}`;
}

/** The npm packages among the modules written down. */
function packagesIn(file: string): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
    if (match?.[1] !== undefined) names.add(match[1]);
  }
  return names;
}

/** Loaded only by the path that needs them (docs/operations.md, "What starts when"). */
const ON_FIRST_USE = [
  'pdfkit',
  'sharp',
  'nodemailer',
  '@simplewebauthn/server',
  'qrcode',
  'libphonenumber-js',
  'prom-client',
  'piscina',
  // Fastify's response-serializer compiler (its error serializer, prebuilt, is always loaded).
  '@fastify/fast-json-stringify-compiler',
  // The form-body parser (http/plugins/form-body.ts).
  'qs',
];

describe('start-up', () => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await freshDatabase('sqlite');
    dir = mkdtempSync(join(tmpdir(), 'checkwriter-start-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the pool starts no thread while the server builds, listens and answers; the first heavy work starts one', async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', HEAVY_WORK_THREADS: '2', ...database.env });
    const before = osThreads();
    const pool = new PiscinaHeavyWork(config.heavyWork);
    const app = await buildApp(config, {
      db: database.db,
      keys: await ApiKeys.open(database.db, config),
      heavyWork: pool,
    });
    try {
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(pool.threads).toBe(0);
      expect(osThreads()).toBe(before);
      const owner = { accountId: 'acct_start', env: 'test' as const };
      const file = {
        text: 'check,amount,date\n1001,10.00,2026-11-02\n',
        fallbackDate: '2026-11-02',
        today: '2026-11-03',
      };
      const read = await pool.run('read-cleared-items', file, { owner });
      expect(read).toEqual(await new InlineHeavyWork().run('read-cleared-items', file));
      expect(pool.threads).toBeGreaterThanOrEqual(1);
      expect(osThreads()).toBeGreaterThan(before);
    } finally {
      await app.close();
      await pool.close();
    }
  });

  it('a listening server has loaded none of the libraries that wait for their first use', async () => {
    const file = join(dir, 'serve-modules.txt');
    const server = await startServerProcess({ ...database.env, NODE_OPTIONS: recordingOptions(file) });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.stop('SIGTERM');
    }
    const loaded = packagesIn(file);
    // The recording works: what every start needs is in it.
    expect(loaded).toContain('pino');
    expect(loaded).toContain('@fastify/cookie');
    for (const name of [...ON_FIRST_USE, 'pg']) expect(loaded, name).not.toContain(name);
    // Built (bin/build.js), the server runs the bundle: our modules, TypeBox and Fastify come from a
    // few files of dist/bundle/, not from dist/'s tree or node_modules (what start-up cost).
    // Without a current build (sources edited since) the server ran through tsx: skipped with a
    // note, except in CI, where the build is part of the install and its absence fails the run.
    const bundled = distIsCurrent() && compiled.includes('/dist/bundle/');
    if (requiredInCiElseSkipped(bundled, 'an up-to-date bundle in dist/bundle/ (the build)', 'npm run build')) {
      const lines = readFileSync(file, 'utf8').split('\n');
      expect(lines).toContain(pathToFileURL(compiled).href);
      const ours = pathToFileURL(`${root}dist/`).href;
      expect(lines.filter((line) => line.startsWith(ours) && !line.startsWith(`${ours}bundle/`))).toEqual([]);
      for (const name of [
        'typebox',
        'fastify',
        'semver',
        'ajv',
        '@fastify/swagger',
        '@fastify/swagger-ui',
        '@fastify/static',
      ])
        expect(loaded, name).not.toContain(name);
      // The YAML writer of the OpenAPI document waits for its first use in the bundle only
      // (bin/build.js, LOADED_AT_FIRST_USE): run from the sources, the swagger packages load it.
      expect(loaded).not.toContain('yaml');
    }
  });

  it('what waits for its first use answers at its first use: a form body, the OpenAPI document, its YAML and docs pages', async () => {
    const key = await createKeyWithCli('first-use@example.com', database.env);
    const server = await startServerProcess(database.env);
    try {
      const api = `${server.url}/api/v3`;
      const created = await fetch(`${api}/categories`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=First+use&type=expense',
      });
      expect(created.status, await created.clone().text()).toBe(201);
      expect(await created.json()).toMatchObject({ success: true, data: { name: 'First use', type: 'expense' } });
      const document = await fetch(`${api}/openapi.json`);
      expect(document.status).toBe(200);
      const paths = Object.keys(((await document.json()) as { paths: object }).paths);
      expect(paths).toContain('/checks');
      const yaml = await fetch(`${api}/docs/yaml`);
      expect(yaml.status).toBe(200);
      expect(yaml.headers.get('content-type')).toContain('application/x-yaml');
      const text = await yaml.text();
      expect(text).toMatch(/^openapi: 3\.1\.0$/m);
      expect(text).toContain('  /checks:');
      // swagger-ui's page, and its files read from its own folder (bundled, it is told where).
      const page = await fetch(`${api}/docs/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await page.text()).toContain('swagger-initializer.js');
      const script = await fetch(`${api}/docs/static/swagger-ui-bundle.js`);
      expect(script.status).toBe(200);
      expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
      expect((await fetch(`${api}/docs/static/logo.svg`)).status).toBe(200);
      expect((await fetch(`${api}/docs/static/missing.js`)).status).toBe(404);
    } finally {
      await server.stop('SIGTERM');
    }
  });

  it('keys create loads neither the HTTP server nor the libraries of other commands', async () => {
    const file = join(dir, 'keys-modules.txt');
    const created = await runCli(['keys', 'create', '--email', 'loads@example.com'], {
      ...database.env,
      NODE_OPTIONS: recordingOptions(file),
    });
    expect(created.code, created.stderr).toBe(0);
    const loaded = packagesIn(file);
    expect([...loaded].some((name) => name.startsWith('better-sqlite3'))).toBe(true);
    for (const name of [...ON_FIRST_USE, 'pg', 'fastify', 'typebox', 'ajv']) expect(loaded, name).not.toContain(name);
  });
});
