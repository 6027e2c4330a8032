// CSV import of 10,000 checks: POST /api/v3/imports with a QuickBooks-shaped check
// detail export, then GET /imports/{id} until it has succeeded. Measured from the POST to the
// succeeded state: reading, mapping and checking every row (the request), then writing them in one
// transaction through createChecks (the background runner).
import { HttpClient } from '../http-client.ts';
import { createAccount, createBasics } from '../fixtures.ts';
import { fmt, TARGETS, type ScenarioContext, type ScenarioOutcome } from '../scenario.ts';

export const IMPORT_ROWS = 10_000;

export interface ImportDetails {
  rows: number;
  bytes: number;
  /** POST answered 202: the file read and every row checked. */
  acceptMs: number;
  /** POST to the succeeded state. */
  totalMs: number;
  rowsPerSec: number;
  checksStored: number;
}

const MEMOS = ['Consulting services', 'Office rent, October', 'Monthly retainer', 'Equipment lease', 'Office supplies'];

/**
 * A QuickBooks-shaped check detail export (Date, Num, Name, Memo, Amount) of `rows` checks to the
 * payees named, in turn: the file both import measurements send.
 */
export function checkDetailCsv(names: readonly string[], rows: number): string {
  const lines = ['Date,Num,Name,Memo,Amount'];
  for (let i = 0; i < rows; i++) {
    const cents = ((i * 7919) % 500_000) + 100;
    const amount = `${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;
    lines.push(
      `11/${String((i % 28) + 1).padStart(2, '0')}/2026,,"${names[i % names.length]}","${MEMOS[i % MEMOS.length]}","${amount}"`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

export interface ImportReply {
  data: { importId: string; state: string; rowsDone: number };
}

export async function runImport(ctx: ScenarioContext): Promise<ScenarioOutcome<ImportDetails>> {
  const account = await createAccount(ctx.database, 'import@bench.test');
  const client = new HttpClient(ctx.serverUrl, account.key);
  try {
    const names = Array.from({ length: 200 }, (_, i) => `Vendor ${String(i).padStart(3, '0')}, Inc.`);
    const basics = await createBasics(client, names);
    const csv = checkDetailCsv(names, IMPORT_ROWS);
    const started = performance.now();
    const accepted = await client.json<ImportReply>('POST', '/imports', 202, {
      type: 'checks',
      csv,
      bankAccountId: basics.bankAccountId,
    });
    const acceptMs = performance.now() - started;
    let state = accepted.data.state;
    while (state !== 'succeeded') {
      if (state === 'failed') throw new Error('the import failed');
      if (performance.now() - started > 120_000) throw new Error('the import did not finish within 120 s');
      await new Promise((r) => setTimeout(r, 20));
      state = (await client.json<ImportReply>('GET', `/imports/${accepted.data.importId}`, 200)).data.state;
    }
    const totalMs = performance.now() - started;
    const stored = await ctx.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM checks WHERE account_id = ?', [
      account.owner.accountId,
    ]);
    const checksStored = Number(stored?.n ?? 0);
    if (checksStored !== IMPORT_ROWS) throw new Error(`the import succeeded but ${checksStored} checks are stored`);
    const rowsPerSec = IMPORT_ROWS / (totalMs / 1000);
    const target = TARGETS.importRowsPerSec[ctx.dialect];
    return {
      details: { rows: IMPORT_ROWS, bytes: Buffer.byteLength(csv), acceptMs, totalMs, rowsPerSec, checksStored },
      verdicts: [
        {
          scenario: `CSV import of ${fmt(IMPORT_ROWS)} checks`,
          measured: `${fmt(rowsPerSec)} rows/s (${fmt(totalMs)} ms; checked and accepted in ${fmt(acceptMs)} ms)`,
          target: target === null ? 'reported' : `≥ ${fmt(target)} rows/s`,
          pass: target === null ? null : rowsPerSec >= target,
        },
      ],
    };
  } finally {
    client.close();
  }
}
