// Every import of every file under src/ against the one rules table (src/layers.ts): which layer
// may import which, the concrete adapters only the entry points construct, one Ajv. A break names
// the file, the import and the rule, so the message says what to move.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ADAPTERS, ALLOWED_FOR_NOW, LAYERS, type Layer, ONE_HOME } from '../../src/layers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');

interface ImportEdge {
  /** The importing file, relative to src/ with forward slashes. */
  from: string;
  /** The imported module relative to src/ (ours), or the package name. */
  to: string;
  ours: boolean;
  typesOnly: boolean;
  /** The specifier as written. */
  written: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const posix = (path: string): string => path.split(sep).join('/');

/** "csv-parse/sync" → "csv-parse", "@fastify/cookie/x" → "@fastify/cookie". */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** An import clause brings in types alone when it says `import type`, or names only `type` bindings. */
function clauseTypesOnly(clause: ts.ImportClause | undefined): boolean {
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  if (clause.name !== undefined) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

function exportTypesOnly(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((e) => e.isTypeOnly)
  );
}

/** Every `import … from`, `export … from`, `import('…')` and `import('…')` type of one file. */
function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const from = posix(relative(SRC, file));
  const found: { written: string; typesOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier))
      found.push({ written: node.moduleSpecifier.text, typesOnly: clauseTypesOnly(node.importClause) });
    else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push({ written: node.moduleSpecifier.text, typesOnly: exportTypesOnly(node) });
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      found.push({ written: node.arguments[0].text, typesOnly: false });
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      found.push({ written: node.argument.literal.text, typesOnly: true });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.map(({ written, typesOnly }) => {
    if (!written.startsWith('.')) return { from, to: packageName(written), ours: false, typesOnly, written };
    const target = normalize(join(dirname(file), written));
    return { from, to: posix(relative(SRC, target)), ours: true, typesOnly, written };
  });
}

function matches(path: string, pattern: string): boolean {
  return pattern.endsWith('/') ? path.startsWith(pattern) : path === pattern;
}

/** The layer of a path under src/: the entry whose matching path is the longest. */
function layerOf(path: string): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of LAYERS)
    for (const pattern of layer.paths)
      if (matches(path, pattern) && (best === undefined || pattern.length > best.length))
        best = { layer, length: pattern.length };
  return best?.layer;
}

function names(list: readonly string[]): string {
  return list.length === 0 ? 'nothing of ours' : list.join(', ');
}

/** Why an import breaks the rules, or null when it keeps them. */
function breakOf(edge: ImportEdge): string | null {
  const from = layerOf(edge.from);
  if (from === undefined) return `${edge.from} is in no layer of src/layers.ts: add its folder to the table`;
  if (!edge.ours) {
    const home = ONE_HOME[edge.to];
    if (home !== undefined && home !== edge.from && !edge.typesOnly)
      return `only ${home} loads ${edge.to} (one validator): use the one there`;
    return null;
  }
  const to = layerOf(edge.to);
  if (to === undefined) return `${edge.to} is in no layer of src/layers.ts`;
  if (ADAPTERS.includes(edge.to) && !edge.typesOnly && from.name !== 'entry' && from.name !== to.name)
    return `${edge.to} is a concrete adapter: only the entry points (${names(LAYERS[0]?.paths ?? [])}) construct it and hand it down`;
  if (from.name === to.name || from.imports === 'anything') return null;
  const allowed = [...from.imports, ...(edge.typesOnly ? (from.typeImports ?? []) : [])];
  if (allowed.includes(to.name) || allowed.includes(edge.to)) return null;
  const typeNote = from.typeImports === undefined ? '' : ` (types alone also from ${names(from.typeImports)})`;
  return `the ${from.name} layer may import ${names(from.imports)}${typeNote} — not ${to.name}`;
}

function isAllowedForNow(edge: ImportEdge): boolean {
  return ALLOWED_FOR_NOW.some((a) => matches(edge.from, a.from) && a.to === edge.to);
}

function describeEdge(edge: ImportEdge): string {
  return `src/${edge.from} imports '${edge.written}'${edge.typesOnly ? ' (types)' : ''}`;
}

const FILES = sourceFiles(SRC);
const EDGES = FILES.flatMap(importsOf);

describe('the layers of src/ (src/layers.ts)', () => {
  it('reads the imports of every file, of every form', () => {
    // A walk that found nothing would pass every rule below: it must see what is there.
    expect(FILES.length).toBeGreaterThan(200);
    const main = EDGES.filter((e) => e.from === 'cli/main.ts');
    expect(main.some((e) => e.to === 'server.ts' && !e.typesOnly)).toBe(true); // import('../server.ts')
    expect(EDGES.some((e) => e.from === 'heavy-work/tasks/index.ts' && e.typesOnly)).toBe(true); // import type * as
    expect(EDGES.some((e) => e.from === 'delivery/messages.ts' && e.to === 'formats/html-text.ts')).toBe(true);
  });

  it('finds every relative import on disk', () => {
    const missing = EDGES.filter((e) => e.ours && !existsSync(join(SRC, e.to))).map(describeEdge);
    expect(missing).toEqual([]);
  });

  it('puts every file of src/ in a layer', () => {
    const homeless = FILES.map((f) => posix(relative(SRC, f))).filter((path) => layerOf(path) === undefined);
    expect(homeless).toEqual([]);
  });

  it('keeps every import to the rules', () => {
    const breaks = EDGES.flatMap((edge) => {
      const why = breakOf(edge);
      return why === null || isAllowedForNow(edge) ? [] : [`${describeEdge(edge)}: ${why}`];
    });
    expect(breaks, breaks.join('\n')).toEqual([]);
  });

  it('lists in ALLOWED_FOR_NOW only imports that still break a rule', () => {
    const stale = ALLOWED_FOR_NOW.filter(
      (a) => !EDGES.some((e) => matches(e.from, a.from) && e.to === a.to && breakOf(e) !== null),
    ).map((a) => `${a.from} → ${a.to} keeps the rules now (or is gone): remove it from ALLOWED_FOR_NOW`);
    expect(stale).toEqual([]);
  });

  it('names only layers and modules that exist', () => {
    const layerNames = new Set(LAYERS.map((l) => l.name));
    const unknown = LAYERS.flatMap((l) =>
      [...(l.imports === 'anything' ? [] : l.imports), ...(l.typeImports ?? [])]
        .filter((name) => !layerNames.has(name) && !existsSync(join(SRC, name)))
        .map((name) => `${l.name} → ${name}`),
    );
    const adapters = ADAPTERS.filter((path) => !existsSync(join(SRC, path)));
    expect([...unknown, ...adapters]).toEqual([]);
  });

  it('is the table docs/architecture.md states', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const missing = LAYERS.filter((l) => {
      const imports = l.imports === 'anything' ? 'anything' : names(l.imports);
      return !doc.includes(`| ${l.name} | ${l.paths.map((p) => `\`${p}\``).join(' ')} | ${imports} |`);
    }).map((l) => l.name);
    expect(missing).toEqual([]);
  });
});

describe('the rules check', () => {
  const edge = (from: string, to: string, typesOnly = false): ImportEdge => ({
    from,
    to,
    ours: !to.startsWith('ajv'),
    typesOnly,
    written: to,
  });

  it('refuses an arrow up, a store import above services, an adapter or a second Ajv', () => {
    expect(breakOf(edge('heavy-work/tasks/read-import-file.task.ts', 'services/imports/model.ts'))).toMatch(
      /the tasks layer may import .* — not services/,
    );
    expect(breakOf(edge('cli/import.ts', 'store/accounts.repository.ts'))).toMatch(/the cli layer .* — not store/);
    expect(breakOf(edge('http/presenters.ts', 'store/check-register.repository.ts', true))).toMatch(/not store/);
    expect(breakOf(edge('http/presenters.ts', 'services/checks/write.service.ts'))).toMatch(
      /types alone also from services/,
    );
    expect(breakOf(edge('http/presenters.ts', 'services/checks/write.service.ts', true))).toBeNull();
    expect(breakOf(edge('domain/check.ts', 'schemas/checks.ts'))).toMatch(
      /the domain layer may import nothing of ours/,
    );
    expect(breakOf(edge('services/checks/print.service.ts', 'heavy-work/inline.ts'))).toMatch(/concrete adapter/);
    expect(breakOf(edge('services/checks/print.service.ts', 'heavy-work/heavy-work.ts', true))).toBeNull();
    expect(breakOf(edge('panel/form.ts', 'ajv'))).toMatch(/only schemas\/validator\.ts loads ajv/);
    expect(breakOf(edge('app.ts', 'store/connect.ts'))).toBeNull();
  });
});
