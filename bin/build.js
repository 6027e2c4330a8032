#!/usr/bin/env node
// `npm run build` and `npm install`'s prepare step: compiles src/ to dist/ with tsc, then bundles
// the command's entry point and what it imports into dist/bundle/ with esbuild.
//
// Why a bundle: on Node 20 (no compile cache) a start spent most of its time finding, reading and
// linking about a thousand small modules — our own ~380 and TypeBox's ~370 (the schemas' `Type`
// builders) — before the first answer (docs/benchmarks.md, "Start-up: one bundle"). The bundle
// holds our code and TypeBox in a few files; every other package stays an ordinary import from
// node_modules (native code, files read beside their own modules, and CommonJS packages that read
// __dirname would not survive being moved), and the dynamic imports of what starts on first use
// (the server, the pool, PDF and mail) stay separate chunks, loaded only when asked for.
//
// dist/ keeps the unbundled tree too: the worker threads load their modules from it
// (heavy-work/thread.js, store/sqlite-checkpoint-thread.js), by paths that resolve the same from
// dist/bundle/ as from their own folders. Without esbuild (an install without dev dependencies)
// the build stops after tsc and the command runs dist/cli/main.js.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { bundleDir, root } from './dist-state.js';

/** Packages compiled into the bundle: many small ES modules, pure code, no files of their own. */
const BUNDLED_PACKAGES = new Set(['typebox']);

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export function compile() {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  return run.status ?? 1;
}

export async function bundle() {
  rmSync(bundleDir, { recursive: true, force: true });
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    process.stderr.write('checkwriter build: esbuild is not installed; dist/cli/main.js runs unbundled\n');
    return 0;
  }
  const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
  const known = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]);
  const externals = {
    name: 'node-modules-stay-external',
    setup(build) {
      // A bare specifier (a package) stays an import unless it is one of BUNDLED_PACKAGES.
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return { external: true };
        const name = packageName(args.path);
        if (BUNDLED_PACKAGES.has(name)) return undefined;
        if (!known.has(name) && !args.importer.includes('node_modules'))
          return { errors: [{ text: `${args.path} is not a dependency in package.json` }] };
        return { external: true };
      });
    },
  };
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['dist/cli/main.js'],
    outdir: bundleDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [externals],
    logLevel: 'warning',
  });
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const status = compile();
  process.exit(status === 0 ? await bundle() : status);
}
