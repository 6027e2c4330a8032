#!/usr/bin/env node
// `npm install`'s prepare step: compiles src/ to dist/ unless dist/ is already current.
// npm 11's npx, asked for a command that the project itself provides (`npx checkwriter` in this
// checkout), links the checkout into its own cache and runs this step there again before the
// first answer; compiling every time made a fresh clone's first `npx checkwriter keys create`
// sit silent for 16 s. `npm run build` always compiles.
import { bundle, compile } from './build.js';
import { distIsCurrent } from './dist-state.js';

if (!distIsCurrent()) {
  const status = compile();
  process.exit(status === 0 ? await bundle() : status);
}
