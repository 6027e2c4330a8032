// Writes src/schema.ts from the OpenAPI document of a checkwriter server: the one at the URL given
// (e.g. `npm run generate -w packages/client -- http://127.0.0.1:8080`), or else a server started
// here on a scratch SQLite file and stopped afterwards.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typesFromDocument } from './schema-types.ts';

const BIN = fileURLToPath(new URL('../../../bin/checkwriter.js', import.meta.url));
const OUT = fileURLToPath(new URL('../src/schema.ts', import.meta.url));

async function withScratchServer<T>(work: (url: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'checkwriter-client-'));
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: `sqlite:${join(dir, 'scratch.db')}`,
      KEY_SIGNING_SECRET: 'scratch-secret-for-schema-generation-only',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.on('exit', (code) => reject(new Error(`the server exited with ${code}`)));
    });
    return await work(url);
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function documentAt(url: string): Promise<unknown> {
  const response = await fetch(`${url.replace(/\/$/, '')}/api/v3/openapi.json`);
  if (!response.ok) throw new Error(`${url}: the OpenAPI document answered ${response.status}`);
  return response.json();
}

const given = process.argv[2];
const document = given === undefined ? await withScratchServer(documentAt) : await documentAt(given);
writeFileSync(OUT, await typesFromDocument(document));
console.log(`wrote ${OUT}`);
