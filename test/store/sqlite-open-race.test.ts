// Two processes opening one new SQLite file at the same moment (two servers started at once):
// switching to WAL needs the file to itself, and without a retry one of the pair failed about one
// time in five with "database is locked" (seen in CI). Each round starts a fresh file and two
// processes that open it with the store's own SqliteDb and write to it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const ROUNDS = 24;
const dir = mkdtempSync(join(tmpdir(), 'checkwriter-open-race-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const script = `
import { SqliteDb } from ${JSON.stringify(resolve('src/store/sqlite.ts'))};
const db = new SqliteDb(process.argv[1]);
await db.transaction(async (tx) => {
  await tx.run('CREATE TABLE IF NOT EXISTS opened (pid INTEGER)');
  await tx.run('INSERT INTO opened (pid) VALUES (?)', [process.pid]);
});
await db.close();
`;

function openInProcess(file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => done({ code, output }));
  });
}

it(`two processes opening one new database file at once both succeed (${ROUNDS} rounds)`, {
  timeout: 120_000,
}, async () => {
  for (let round = 0; round < ROUNDS; round += 1) {
    const file = join(dir, `race-${round}.db`);
    const results = await Promise.all([openInProcess(file), openInProcess(file)]);
    for (const r of results) expect(r, r.output).toMatchObject({ code: 0 });
  }
});
