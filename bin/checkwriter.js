#!/usr/bin/env node
// The `checkwriter` command (npm start runs `checkwriter serve`). It runs the compiled JavaScript
// in dist/, which `npm install` builds (the prepare script) and `npm run build` rebuilds: starting
// from compiled code takes a fraction of the time of compiling TypeScript at every start.
// When dist/ is missing or older than a source file (a checkout or an edit since the last build),
// the sources run through tsx instead, so what runs is never stale; tsx is a dev dependency, so an
// install without dev dependencies must ship a built dist/.
import module from 'node:module';
import { builtAt, compiled, distIsCurrent } from './dist-state.js';

// Node 22.1 and later keep compiled code of the modules loaded here in a cache on disk (the OS's
// temporary folder), which halves the start-up of a process that loads a few thousand modules.
// Node 20 has no such cache; this is then a no-op.
module.enableCompileCache?.();

if (distIsCurrent()) {
  await import(compiled);
} else {
  if (builtAt() >= 0)
    process.stderr.write('checkwriter: dist/ is older than src/, running the sources (npm run build)\n');
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
