// `npx checkwriter` in a fresh clone must answer at once. npm 11's npx, asked for a command the
// project itself provides, links the checkout into its cache and runs the prepare step there before
// the first answer; that step compiled src/ every time (16 s). It now compiles only when dist/ is
// not current (bin/prepare.js), so the first npx runs the built command straight away.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module of the bin folder, without type declarations.
import { distIsCurrent } from '../../bin/dist-state.js';

const ENTRY = 'dist/cli/main.js';

// dist/ is current after `npm install` or `npm run build` (CI installs afresh); after an edit of
// src/ it is not, and the prepare step would rightly compile: `npm run build` first.
describe.skipIf(!distIsCurrent())('npx checkwriter on a fresh npm cache', () => {
  it('answers without compiling again', () => {
    const before = statSync(ENTRY).mtimeMs;
    // An empty cache (what a fresh machine has) and --offline: nothing is fetched.
    const cache = mkdtempSync(join(tmpdir(), 'checkwriter-npx-cache-'));
    try {
      const run = spawnSync('npx', ['--offline', '--yes', 'checkwriter', '--help'], {
        encoding: 'utf8',
        env: { ...process.env, npm_config_cache: cache },
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('Usage: checkwriter <command>');
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
    // The prepare step left dist/ as it was: nothing was compiled.
    expect(statSync(ENTRY).mtimeMs).toBe(before);
  });
});
