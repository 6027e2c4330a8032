// The layers of src/ and which way their imports may go: the one statement of the rules, which
// test/architecture/layers.test.ts checks against every import of every file and
// docs/architecture.md prints. Data only; nothing of the service imports it.
//
// A file's layer is the entry whose path matches it most specifically (a folder ends with '/').
// A layer may always import its own files. `imports` names layers, or single modules for a narrow
// exception; `typeImports` what it may import for types alone (`import type`, erased at run time).

export interface Layer {
  readonly name: string;
  readonly paths: readonly string[];
  readonly imports: readonly string[] | 'anything';
  readonly typeImports?: readonly string[];
  readonly role: string;
}

export const LAYERS: readonly Layer[] = [
  {
    name: 'entry',
    paths: ['app.ts', 'server.ts', 'delivery-worker.ts', 'cli/main.ts'],
    imports: 'anything',
    role: 'the entry points: the only files that construct concrete parts and wire them together',
  },
  {
    name: 'process',
    paths: ['log-stream.ts', 'metrics-server.ts'],
    imports: ['shared', 'domain'],
    role: "helpers of a process's start-up, for the entry points alone",
  },
  {
    name: 'shared',
    paths: ['config.ts', 'errors.ts', 'metrics.ts', 'thread-module.ts'],
    imports: ['domain'],
    role: 'the settings, the one error model, the metrics registry and how a worker thread finds its module, used by every layer',
  },
  { name: 'rules', paths: ['layers.ts'], imports: [], role: 'this table' },
  {
    name: 'http',
    paths: ['http/'],
    imports: ['services', 'schemas', 'formats', 'domain', 'shared', 'presenters'],
    role: 'routes, plugins and pages of the API',
  },
  {
    name: 'presenters',
    paths: ['http/presenters.ts'],
    imports: ['domain', 'shared'],
    typeImports: ['services'],
    role: "the wire shapes, made from domain types (a service's answer type at most)",
  },
  {
    name: 'panel',
    paths: ['panel/'],
    imports: ['services', 'schemas', 'formats', 'domain', 'shared', 'http/validation.ts', 'render/print-layout.ts'],
    role: "the /panel pages; they validate with the API's compiled schemas and name the printable stocks",
  },
  {
    name: 'cli',
    paths: ['cli/'],
    imports: ['services', 'schemas', 'formats', 'domain', 'shared'],
    role: 'the checkwriter commands; cli/main.ts opens the database and hands each command what it needs',
  },
  {
    name: 'services',
    paths: ['services/'],
    imports: ['schemas', 'store', 'render', 'delivery', 'formats', 'heavy-work', 'tasks', 'domain', 'shared'],
    role: 'the rules of each operation, transactions, events; the delivery worker',
  },
  {
    name: 'heavy-work',
    paths: ['heavy-work/'],
    imports: ['tasks', 'domain', 'shared'],
    role: 'the pool of worker threads and the inline runner that run tasks',
  },
  {
    name: 'tasks',
    paths: ['heavy-work/tasks/'],
    imports: ['render', 'formats', 'domain', 'shared'],
    role: 'the CPU-heavy steps, pure functions of cloneable input; never a service',
  },
  {
    name: 'schemas',
    paths: ['schemas/'],
    imports: ['domain', 'shared', 'render/print-layout.ts'],
    role: 'TypeBox request and read shapes, the one validator (schemas/validator.ts)',
  },
  {
    name: 'store',
    paths: ['store/'],
    imports: ['domain', 'shared'],
    role: 'SQL for both dialects, migrations, the database adapters',
  },
  {
    name: 'render',
    paths: ['render/'],
    imports: ['formats', 'domain', 'shared'],
    role: 'the check PDF, E-13B and the MICR line',
  },
  {
    name: 'delivery',
    paths: ['delivery/'],
    imports: ['formats', 'domain', 'shared'],
    role: 'the mail, SMS and webhook adapters and the messages they carry',
  },
  {
    name: 'formats',
    paths: ['formats/'],
    imports: ['schemas', 'domain', 'shared'],
    role: 'pure file readers and writers, bytes and text to values and back (CSV, positive pay, cleared items, an import)',
  },
  {
    name: 'domain',
    paths: ['domain/'],
    imports: [],
    role: 'one file per entity and the pure rules: no I/O, no Fastify, no SQL',
  },
];

/**
 * Concrete adapters: a value import of one of these (constructing a database, a pool, a sender)
 * is the entry points' alone, besides the adapter's own layer. Types and ports may go anywhere
 * their layer may.
 */
export const ADAPTERS: readonly string[] = [
  'store/connect.ts',
  'store/postgres.ts',
  'store/sqlite.ts',
  'store/sqlite-driver.ts',
  'store/sqlite-backup.ts',
  'heavy-work/open-heavy-work.ts',
  'heavy-work/piscina-pool.ts',
  'heavy-work/inline.ts',
  'delivery/mailer.ts',
  'delivery/webhook-sender.ts',
];

/** Packages one module alone may load for their values: one Ajv, set up as our schemas are checked. */
export const ONE_HOME: Readonly<Record<string, string>> = {
  ajv: 'schemas/validator.ts',
  'ajv-formats': 'schemas/validator.ts',
};

export interface AllowedForNow {
  /** The importing file, or every file of a folder (ending with '/'). */
  readonly from: string;
  readonly to: string;
  readonly why: string;
}

/**
 * Known breaks of the rules, each to be mended and then removed from here (the test fails on an
 * entry that no longer matches any import, so the list only shrinks). Empty: keep it so.
 */
export const ALLOWED_FOR_NOW: readonly AllowedForNow[] = [];
