// A reader of the repository has no issue tracker: a comment that says "(issue 24, item 10)" tells
// them nothing, so every comment states its reason itself. This walks src/, test/ and bench/ and
// names each line that still cites an issue number, so a new one is rewritten before it lands.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const THIS_FILE = fileURLToPath(import.meta.url);

/** "issue 13", "Issue 22's", "issues 22 and 23"; not "issue date" or "the issue states". */
const CITATION = /\b[Ii]ssues? \d/;

/**
 * Lines still citing an issue, by their trimmed text (not their path, so a file moved keeps its
 * entry): they sit in files being moved or rewritten on other branches, and test titles, which are
 * code. Rewrite the line to say its reason, then delete its entry here.
 */
const NOT_YET_REWRITTEN: ReadonlySet<string> = new Set([
  '/** POST /vouchers: a voucher on its own, for a check to name by `voucherId` later (issue 25). */',
  '// repository, term searches from check-search.ts with their totals remembered (issue 13).',
  "/** The logo a bank account's checks print: its own, else the account's (issue 14). */",
  '* Removes the category while no check is filed under it (issue 14), decided in the deleting',
  "* The panel's delete (issue 14): the payee goes only while no check names it, decided in the one",
  '// Forms of the records and settings pages (issue 14, item 2): fields drawn with their labels and,',
  '// The `term` filter of GET /checks at a million checks (issue 13). A check matches when the term',
  "// Checks written and cleared per week, for the panel's home (issue 24, item 7): counted and added",
  '// Issue 22: a clearing dated before the check itself (the year 1900; the day before its date).',
  "// Issue 14's register target: the register page of a bank account with 100,000 checks, p99 ≤ 250 ms",
  'it("issue 22\'s row: a 93-byte PNG with two IHDR chunks (1×1, then 12000×12000 RGBA)", async () => {',
  'it("issue 22\'s row: a 41-byte JPEG declaring 65535×65535", async () => {',
  "it('tells the tolerances clients of the hosted service rely on (issue 11)', () => {",
  'it("describes the hosted service\'s routes beyond the spec (issue 25), each marked so", () => {',
]);

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') && path !== THIS_FILE ? [path] : [];
  });
}

function citations(): string[] {
  return ['src', 'test', 'bench'].flatMap((top) =>
    tsFiles(join(ROOT, top)).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => {
          const text = line.trim();
          if (!CITATION.test(text) || NOT_YET_REWRITTEN.has(text)) return [];
          return [`${relative(ROOT, file).split(sep).join('/')}:${index + 1}: ${text}`];
        }),
    ),
  );
}

describe('comments say why, without tracker numbers', () => {
  it('no line of src/, test/ or bench/ cites an issue number', () => {
    expect(citations()).toEqual([]);
  });

  it('finds a citation when one is written', () => {
    expect(CITATION.test('// Bodies are parsed after the key was checked (issue 10, item 1).')).toBe(true);
    expect(CITATION.test("// Issue 22's row: a 93-byte PNG.")).toBe(true);
    expect(CITATION.test("// the check's issue date, as the issue states it")).toBe(false);
  });
});
