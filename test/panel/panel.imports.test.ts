// The panel's modules import one way: no file of src/panel reaches itself again through its
// relative imports. Read from the files' own import lines, as a madge-like walk over every folder
// of src/panel, so a page moved into a menu's folder stays watched.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const PANEL = resolve(import.meta.dirname, '../../src/panel');

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\b[^;]*?from '(\.{1,2}\/[^']+)'/gms)]
    .map((m) => resolve(dirname(file), m[1] ?? ''))
    .filter((target) => target.startsWith(PANEL));
}

function cyclesIn(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles.map((cycle) => cycle.map((f) => relative(PANEL, f)));
}

describe('the panel modules', () => {
  const files = readdirSync(PANEL, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(PANEL, name));

  const graph = new Map(files.map((f) => [f, importsOf(f)]));

  it('import each other without a cycle', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(cyclesIn(graph).map((c) => c.join(' → '))).toEqual([]);
  });

  it('walks every file a panel module imports (no import leads outside the walk)', () => {
    const walked = new Set(files);
    const unwalked = [...graph.values()].flat().filter((target) => !walked.has(target));
    expect([...new Set(unwalked)].map((f) => relative(PANEL, f))).toEqual([]);
  });

  it('the walk reports the cycle of before when its edge is put back (records.pages → bank-accounts.pages)', () => {
    // The bank accounts' pages now use the records' pages for their list and forms; the old edge
    // ran the other way, when records.pages.ts registered the bank accounts' uploads itself.
    const records = join(PANEL, 'records/records.pages.ts');
    const banks = join(PANEL, 'bank-accounts/index.ts');
    expect(graph.get(banks)).toContain(records);
    const withOldEdge = new Map(graph);
    withOldEdge.set(records, [...(graph.get(records) ?? []), banks]);
    const found = cyclesIn(withOldEdge);
    expect(found).toHaveLength(1);
    expect(new Set(found[0])).toEqual(new Set(['records/records.pages.ts', 'bank-accounts/index.ts']));
  });
});
