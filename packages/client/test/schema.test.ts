// The committed types are what openapi-typescript makes of the document a running server serves:
// a route or field changed on the server without `npm run generate -w packages/client` fails here.
// The document does not depend on the database, so one (SQLite) server is enough.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDatabaseConfig } from '../../../test/support/databases.ts';
import { startServerProcess, type ServerProcess } from '../../../test/support/processes.ts';
import { typesFromDocument } from '../scripts/schema-types.ts';

let server: ServerProcess | undefined;
let cleanup: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  const fresh = await freshDatabaseConfig('sqlite');
  cleanup = fresh.cleanup;
  server = await startServerProcess(fresh.env);
});
afterAll(async () => {
  await server?.stop();
  await cleanup();
});

it('src/schema.ts matches the OpenAPI document the server serves', async () => {
  const document = await (await fetch(`${server?.url ?? ''}/api/v3/openapi.json`)).json();
  const committed = readFileSync(fileURLToPath(new URL('../src/schema.ts', import.meta.url)), 'utf8');
  expect(committed.length).toBeGreaterThan(10_000);
  expect(await typesFromDocument(document), 'run `npm run generate -w packages/client`').toBe(committed);
});
