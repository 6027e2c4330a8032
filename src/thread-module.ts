// How a worker thread finds its module: the compiled .js in dist/ when the process runs the build,
// or the .ts through tsx when it runs the sources (bin/checkwriter.js in development, vitest).
// Not `--import tsx`: on Node 20 tsx registers its ESM hooks on the main thread only, and the
// thread's own imports failed there ("Unknown file extension .ts"); its API's register(),
// preloaded from a data: URL naming tsx by its resolved file URL, works on every Node we support.
import { fileURLToPath } from 'node:url';

/**
 * The thread module `path` (relative, without extension) as seen from the module at `moduleUrl`.
 * Callers name the folder (`../store/x`) so that the path resolves the same from dist/bundle/
 * (bin/build.js), where their code runs when bundled, as from their own folder.
 */
export function threadModule(moduleUrl: string, path: string): { filename: string; execArgv: string[] } {
  if (!moduleUrl.endsWith('.ts')) return { filename: fileURLToPath(new URL(`${path}.js`, moduleUrl)), execArgv: [] };
  const tsx = import.meta.resolve('tsx/esm/api');
  const preload = `import { register } from ${JSON.stringify(tsx)}; register();`;
  return {
    filename: fileURLToPath(new URL(`${path}.ts`, moduleUrl)),
    execArgv: ['--import', `data:text/javascript,${encodeURIComponent(preload)}`],
  };
}
