// Whether dist/ holds the compiled form of today's src/: the command (bin/checkwriter.js) runs the
// sources through tsx when it does not, and `npm install`'s prepare step (bin/prepare.js) compiles
// only when it does not.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
/** Where bin/build.js bundles the command (its start-up reads a few files, not a thousand). */
export const bundleDir = `${root}dist/bundle`;
const bundled = `${bundleDir}/main.js`;
/** The command's compiled entry point: the bundle, or tsc's output where no bundle was made. */
export const compiled = existsSync(bundled) ? bundled : `${root}dist/cli/main.js`;

/** When dist/ was last built (the entry point, which every build writes last), or -1 when it never was. */
export function builtAt() {
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

/** dist/ exists and is no older than any source file. */
export function distIsCurrent() {
  const built = builtAt();
  return built >= 0 && built >= newestSource();
}
