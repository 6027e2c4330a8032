// One repository style in src/store/: every INSERT is made by table.ts from a table's one
// definition (defineTable), so a column is named once and the compiler checks the list; and every
// query hands the database the parameters of a `sql` template (or a table's rowValues), so a
// parameter can never sit in another place than its text puts it. Read from the source itself
// (the TypeScript parser), like the import rules of layers.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const STORE = fileURLToPath(new URL('../../src/store/', import.meta.url));

/**
 * Files that are not repositories: the database adapters pass text and parameters through,
 * sql.ts and table.ts build them, migrate.ts keeps the migrations' own bookkeeping (migrations
 * are frozen in time and carry their own SQL).
 */
const NOT_REPOSITORIES = new Set([
  'connect.ts',
  'db.ts',
  'migrate.ts',
  'postgres.ts',
  'sql.ts',
  'sqlite-backup.ts',
  'sqlite-driver.ts',
  'sqlite.ts',
  'table.ts',
]);

type Rule = 'insert' | 'params';

interface Break {
  file: string;
  rule: Rule;
  line: number;
  text: string;
}

function storeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : storeFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const QUERY_METHODS = new Set(['run', 'get', 'all']);

/** Parameters that travel with their text: a `sql` template's, or a table's row values. */
function paramsTravelWithText(argument: string): boolean {
  return /\.params$/.test(argument) || argument.includes('rowValues(');
}

function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) return node.text;
  return null;
}

/** The breaks of one file's source text (`file` names it in the messages). */
function breaksOf(file: string, text: string): Break[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Break[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    const literal = literalText(node);
    if (literal !== null && /\bINSERT\s+INTO\b/i.test(literal))
      found.push({ file, rule: 'insert', line: at(node), text: literal.replace(/\s+/g, ' ').slice(0, 80) });
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      QUERY_METHODS.has(node.expression.name.text)
    ) {
      const params = node.arguments[1];
      if (params !== undefined && !paramsTravelWithText(params.getText(source)))
        found.push({
          file,
          rule: 'params',
          line: at(node),
          text: node.getText(source).replace(/\s+/g, ' ').slice(0, 80),
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const posix = (path: string): string => path.split(sep).join('/');
const FILES = storeFiles(STORE)
  .map((path) => ({ name: posix(relative(STORE, path)), path }))
  .filter((f) => !NOT_REPOSITORIES.has(f.name));
const BREAKS = FILES.flatMap((f) => breaksOf(f.name, readFileSync(f.path, 'utf8')));

const WHY: Record<Rule, string> = {
  insert: 'an INSERT with its own column list: make it with insertStatement/insertRows from the table’s defineTable',
  params: 'parameters handed over beside their text: build the query as a sql`…` template and pass s.text, s.params',
};

describe('one repository style in src/store/', () => {
  it('reads every repository, the checks folder too', () => {
    // A walk that found nothing would pass both rules: it must see what is there.
    const names = FILES.map((f) => f.name);
    expect(names).toContain('payees.repository.ts');
    expect(names).toContain('checks/search.ts');
    expect(names).not.toContain('sql.ts');
    expect(FILES.length).toBeGreaterThan(30);
  });

  it('makes every INSERT from a table definition and passes every query its template’s parameters', () => {
    const breaks = BREAKS.map((b) => `src/store/${b.file}:${b.line}: ${b.text} — ${WHY[b.rule]}`);
    expect(breaks, breaks.join('\n')).toEqual([]);
  });
});

describe('the store style check', () => {
  it('refuses a hand-kept INSERT column list and parameters handed over by hand', () => {
    const text = [
      "await q.run('INSERT INTO t (a, b) VALUES (?, ?)', [b, a]);",
      `await q.get(\`SELECT \${COLUMNS} FROM t WHERE a = ? AND b = ?\`, [b, a]);`,
      `const s = sql\`SELECT a FROM t WHERE a = \${a}\`; await q.get(s.text, s.params);`,
      'await q.run(INSERT_T, rowValues(T, row));',
      "await q.all('SELECT a FROM t');",
    ].join('\n');
    expect(breaksOf('x.ts', text).map((b) => `${b.rule}:${b.line}`)).toEqual(['params:1', 'insert:1', 'params:2']);
  });
});
