#!/usr/bin/env node
// `npm run build` and `npm install`'s prepare step: compiles src/ to dist/ with tsc, then bundles
// the command's entry point and what it imports into dist/bundle/ with esbuild.
//
// Why a bundle: on Node 20 (no compile cache) a start spent most of its time finding, reading and
// linking about a thousand small modules — our own ~380 and TypeBox's ~370 (the schemas' `Type`
// builders) — before the first answer (docs/benchmarks.md, "Start-up: one bundle"). The bundle
// holds our code, TypeBox, Fastify and the other packages of BUNDLED_PACKAGES in a few files;
// every other package stays an ordinary import from node_modules (native code, files read beside
// their own modules, and packages that read __dirname would not survive being moved, except the
// few READS_BESIDE_ITSELF tells where they are), and the
// dynamic imports of what starts on first use (the server, the pool, PDF and mail) stay separate
// chunks, loaded only when asked for.
//
// dist/ keeps the unbundled tree too: the worker threads load their modules from it
// (heavy-work/thread.js, store/sqlite-checkpoint-thread.js), by paths that resolve the same from
// dist/bundle/ as from their own folders. Without esbuild (an install without dev dependencies)
// the build stops after tsc and the command runs dist/cli/main.js.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { bundleDir, root } from './dist-state.js';

/**
 * Packages compiled into the bundle: what every start loads, pure JavaScript that reads no file of
 * its own (no __dirname, require.resolve or import.meta; checked by hand for each; the two of
 * READS_BESIDE_ITSELF read theirs through __dirname, which the build gives them) and imports no
 * CommonJS module dynamically — TypeBox's ~370 ES modules, Fastify and what it requires (semver
 * alone is ~50 files), Ajv, the multipart and CSV parsers. Not @fastify/cookie: its
 * `await import('cookie')` of a CommonJS module loses the named exports in a bundle's interop (every
 * page that sets a cookie answered 500), and light-my-request requires its own copy of that module.
 */
const BUNDLED_PACKAGES = new Set([
  'typebox',
  'fastify',
  'avvio',
  'find-my-way',
  'semver',
  'abstract-logging',
  'process-warning',
  'rfdc',
  'reusify',
  'fastq',
  'toad-cache',
  'secure-json-parse',
  'fast-querystring',
  'fast-decode-uri-component',
  'ret',
  'safe-regex2',
  'ipaddr.js',
  'fastify-plugin',
  '@fastify/error',
  '@fastify/proxy-addr',
  '@fastify/forwarded',
  '@fastify/deepmerge',
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
  '@fastify/merge-json-schemas',
  'json-schema-ref-resolver',
  'dequal',
  'fast-json-stringify',
  'ajv',
  'ajv-formats',
  'fast-uri',
  'json-schema-traverse',
  'fast-deep-equal',
  '@fastify/multipart',
  '@fastify/busboy',
  'csv-parse',
  'otpauth',
  // The OpenAPI document and its docs pages (/api/v3/openapi.json, /api/v3/docs): registered at
  // every start, and ~90 ms of it on Node 20 when loaded from node_modules, most of that `yaml`
  // (LOADED_AT_FIRST_USE). @fastify/swagger and @fastify/swagger-ui read files beside themselves
  // through __dirname, which READS_BESIDE_ITSELF gives them.
  '@fastify/swagger',
  'json-schema-resolver',
  'debug',
  'ms',
  'supports-color',
  'has-flag',
  '@fastify/swagger-ui',
  '@fastify/static',
  '@fastify/send',
  '@fastify/accept-negotiator',
  'content-disposition',
  'glob',
  'mime',
  'http-errors',
  'depd',
  'statuses',
  'toidentifier',
  'setprototypeof',
  'inherits',
  'escape-html',
  '@lukeed/ms',
]);

/**
 * Bundled packages whose files use `__dirname` to read files of their own (swagger-ui's static
 * files and logo, swagger's package.json): in the bundle, each such file is given the folder it
 * has in node_modules, found at run time from the bundle like the packages left outside are.
 */
const READS_BESIDE_ITSELF = new Set(['@fastify/swagger', '@fastify/swagger-ui']);

/**
 * Packages that bundled packages require at load but use only on a path no start takes: the
 * bundle gets a stand-in that requires the real package from node_modules at its first use.
 * `yaml` (83 files, ~40 ms to load on Node 20) writes only the YAML form of the OpenAPI document
 * (/api/v3/docs/yaml).
 */
const LOADED_AT_FIRST_USE = new Set(['yaml']);

/** Which file `specifier` means to a module at `from` (null: not found by require's rules). */
function foundFrom(from, specifier) {
  try {
    return createRequire(from).resolve(specifier);
  } catch {
    return null;
  }
}

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
      // LOADED_AT_FIRST_USE: a stand-in whose members are read from the real package, required
      // (from node_modules, as any package left outside) the first time one of them is used.
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (!LOADED_AT_FIRST_USE.has(args.path)) return undefined;
        if (args.namespace === 'first-use') return { external: true };
        return { path: args.path, namespace: 'first-use' };
      });
      build.onLoad({ filter: /.*/, namespace: 'first-use' }, (args) => ({
        contents: `let loaded = null;\nmodule.exports = new Proxy({}, { get: (_target, key) => (loaded ??= require(${JSON.stringify(args.path)}))[key] });\n`,
        loader: 'js',
      }));
      build.onLoad({ filter: /\/node_modules\/.*\.js$/ }, (args) => {
        const name = packageName(args.path.split('/node_modules/').at(-1));
        if (!READS_BESIDE_ITSELF.has(name)) return undefined;
        const contents = readFileSync(args.path, 'utf8');
        if (!contents.includes('__dirname')) return undefined;
        const manifest = createRequire(args.path).resolve(`${name}/package.json`);
        // Found again at run time from the bundle: that must be this very copy.
        if (foundFrom(root, `${name}/package.json`) !== manifest)
          return { errors: [{ text: `${args.path} reads beside itself, from a nested copy of ${name}` }] };
        const packageRoot = dirname(manifest);
        const folder = relative(packageRoot, dirname(args.path));
        const found = `require('node:path').join(require('node:path').dirname(require.resolve(${JSON.stringify(`${name}/package.json`)})), ${JSON.stringify(folder)})`;
        return { contents: `var __dirname = ${found};\n${contents}`, loader: 'js' };
      });
      // A bare specifier (a package) stays an import unless it is one of BUNDLED_PACKAGES.
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return { external: true };
        const name = packageName(args.path);
        if (BUNDLED_PACKAGES.has(name)) return undefined;
        if (!known.has(name) && !args.importer.includes('node_modules'))
          return { errors: [{ text: `${args.path} is not a dependency in package.json` }] };
        // Left as an import, it is found from dist/bundle/ at run time: that must be the copy the
        // bundled package would have found from its own folder (not a nested other version).
        if (
          args.importer.includes('node_modules') &&
          foundFrom(args.importer, args.path) !== foundFrom(root, args.path)
        )
          return { errors: [{ text: `${args.path} from ${args.importer} is a nested copy: bundle it too` }] };
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
    // Bundled CommonJS that requires a package left outside calls `require`, which an ES module has
    // not: the banner gives each output file one.
    banner: {
      js: "import { createRequire as __cwCreateRequire } from 'node:module'; const require = __cwCreateRequire(import.meta.url);",
    },
  });
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const status = compile();
  process.exit(status === 0 ? await bundle() : status);
}
