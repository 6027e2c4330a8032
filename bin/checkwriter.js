#!/usr/bin/env node
// The `checkwriter` command (npm start runs `checkwriter serve`). It runs the compiled JavaScript
// in dist/, which `npm install` builds (the prepare script) and `npm run build` rebuilds: starting
// from compiled code takes a fraction of the time of compiling TypeScript at every start.
// When dist/ is missing or older than a source file (a checkout or an edit since the last build),
// the sources run through tsx instead, so what runs is never stale; tsx is a dev dependency, so an
// install without dev dependencies must ship a built dist/.
import { readdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// Node 22.1 and later keep compiled code of the modules loaded here in a cache on disk (the OS's
// temporary folder), which halves the start-up of a process that loads a few thousand modules.
// Node 20 has no such cache; this is then a no-op.
module.enableCompileCache?.();

const root = fileURLToPath(new URL('..', import.meta.url));
const compiled = `${root}dist/cli/main.js`;

function builtAt() {
  try {
    return statSync(compiled).mtimeMs;
  } catch {
    return -1;
  }
}

function newestSource() {
  let newest = 0;
  for (const entry of readdirSync(`${root}src`, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
  }
  return newest;
}

const built = builtAt();
if (built >= 0 && built >= newestSource()) {
  await import(compiled);
} else {
  if (built >= 0) process.stderr.write('checkwriter: dist/ is older than src/, running the sources (npm run build)\n');
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
