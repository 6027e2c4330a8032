// readImportFile is the part of an import meant to move into a worker thread, away from the event
// loop: it must stay pure — no database, no Fastify, no I/O among the modules it loads — and answer
// data that structured cloning (postMessage) carries whole, a refused file included.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readImportFile } from '../../../src/formats/imports/read-import-file.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every module `file` loads, ours (relative paths) and packages, followed through ours. */
function moduleGraph(file: string): { ours: string[]; packages: string[] } {
  const ours = new Set<string>();
  const packages = new Set<string>();
  const walk = (path: string): void => {
    if (ours.has(path)) return;
    ours.add(path);
    const text = readFileSync(path, 'utf8');
    for (const match of text.matchAll(/^(?:import|export)\s[^'";]*?from\s+'([^']+)'/gms)) {
      const target = match[1] ?? '';
      if (target.startsWith('.')) walk(resolve(dirname(path), target));
      else packages.add(target);
    }
  };
  walk(resolve(ROOT, file));
  return { ours: [...ours].map((p) => relative(ROOT, p)), packages: [...packages] };
}

describe('readImportFile, the import step a worker thread can run', () => {
  it('loads no store, HTTP, panel or delivery module, and no package that does I/O', () => {
    const graph = moduleGraph('src/formats/imports/read-import-file.ts');
    expect(graph.ours).toContain('src/formats/csv-reader.ts');
    for (const path of graph.ours)
      expect(path).toMatch(/^src\/(domain\/|schemas\/|formats\/|render\/print-layout\.ts)/);
    expect(graph.packages.sort()).toEqual(['ajv', 'ajv-formats', 'csv-parse/sync', 'typebox']);
  });

  it('answers plain data that survives structured cloning: a checks file with its cell and schema errors, and a refusal', () => {
    const text =
      'Date,Num,Payee,Amount,Memo\r\n11/02/2026,1045,Acme,"1,234.50","Paper, October"\r\n2026-11-03,x1,pay_abc,-5,\r\n';
    const read = readImportFile(text, { kind: 'checks', bankAccountId: 'bank_1' });
    expect(structuredClone(read)).toEqual(read);
    expect(read).toEqual({
      ok: true,
      file: {
        kind: 'checks',
        header: ['Date', 'Num', 'Payee', 'Amount', 'Memo'],
        mapping: ['issueDate', 'serialNumber', 'payee', 'amount', 'memo'],
        lines: [2, 3],
        // Each row's cells as the file wrote them, by field: what the panel quotes in its messages.
        cells: [
          { issueDate: '11/02/2026', serialNumber: '1045', payee: 'Acme', amount: '1,234.50', memo: 'Paper, October' },
          { issueDate: '2026-11-03', serialNumber: 'x1', payee: 'pay_abc', amount: '-5', memo: '' },
        ],
        checks: [
          {
            item: {
              bankAccountId: 'bank_1',
              serialNumber: '1045',
              issueDate: '2026-11-02',
              amount: '1234.50',
              memo: 'Paper, October',
            },
            payeeName: 'Acme',
            categoryName: null,
          },
          {
            item: { bankAccountId: 'bank_1', payeeId: 'pay_abc', serialNumber: 'x1', issueDate: '2026-11-03' },
            payeeName: null,
            categoryName: null,
          },
        ],
        payees: [],
        cellErrors: [[], ['The amount field must be greater than 0 (a negative amount is refused: remove the sign).']],
        schemaErrors: [[], ['The serialNumber field must contain digits only (at most 15).']],
        sample: [
          { issueDate: '11/02/2026', serialNumber: '1045', payee: 'Acme', amount: '1,234.50', memo: 'Paper, October' },
          { issueDate: '2026-11-03', serialNumber: 'x1', payee: 'pay_abc', amount: '-5', memo: '' },
        ],
        // No known export, line 1 the header, money out as positive (the default): nothing left out.
        layout: null,
        headerLine: 1,
        moneyOut: 'positive',
        leftOut: [],
      },
    });
    const refused = readImportFile('Name\n"open', { kind: 'payees' });
    expect(structuredClone(refused)).toEqual({
      ok: false,
      refusal: {
        code: 'validation',
        message: 'The csv field is not a valid CSV file. Line 2: a quoted field is not closed (a " is missing).',
      },
    });
  });
});
