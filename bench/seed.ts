// Seeds an account with `count` checks through the store layer's own connection (Db.transaction,
// Queryable.run), not over HTTP: 1,000,000 checks through the API would take longer than the
// benchmark itself. Rows go in as 1,000-row INSERTs inside 10,000-check transactions, each check
// with its 'created' statement row; search_text comes from the repository's searchText. The
// repository's insertChecks is not used: it writes every check as new and 50 rows per statement,
// and moving 45% of a million checks to other statuses one by one (moveStatus) would take minutes
// on PostgreSQL. What the service derives from checks (check_counts, migration 005) is then
// recomputed for the account, and the list scenario checks every total against the seeded data,
// so a seed that falls out of step with the service fails loudly instead of measuring empty pages.
// Data is deterministic (seeded PRNG) so runs compare.
import { performance } from 'node:perf_hooks';
import { newId } from '../src/domain/ids.ts';
import type { Owner } from '../src/domain/owner.ts';
import type { NewCheck } from '../src/domain/check.ts';
import type { Db } from '../src/store/db.ts';
import { searchText } from '../src/store/checks/rows.ts';
import { updateBankAccount } from '../src/store/bank-accounts.repository.ts';

/** Checks per transaction: large enough that commits are rare, small enough to report progress. */
const PER_TRANSACTION = 10_000;
const FIRST_SERIAL = 10_001;
/** 14 columns × 1,000 rows stays under both SQLite's (32,766) and PostgreSQL's (65,535) parameter limits. */
const ROWS_PER_STATEMENT = 1000;
/** The columns without a default in migrations/001-initial.ts; a new required column fails the seed loudly. */
const CHECK_COLUMNS = [
  'id',
  'account_id',
  'env',
  'bank_account_id',
  'payee_id',
  'serial_number',
  'issue_date',
  'amount_cents',
  'memo',
  'invoice_number',
  'reference_id',
  'status',
  'search_text',
  'created_at',
];
const CHECK_ROW = `(${CHECK_COLUMNS.map(() => '?').join(', ')})`;
const SPAN_MS = 2 * 365 * 24 * 3600 * 1000;

// Four of sixteen memos contain "services": the "term matching many" hits about a quarter.
export const MEMOS = [
  'Office rent',
  'Consulting services',
  'Cleaning services',
  'Legal services',
  'IT services',
  'Monthly retainer',
  'Equipment lease',
  'Office supplies',
  'Utilities',
  'Insurance premium',
  'Freight',
  'Marketing',
  'Software license',
  'Travel reimbursement',
  'Catering',
  'Repairs',
];

/** Status codes (domain/check-status.ts order) with their share of the seeded checks. */
const STATUS_MIX: readonly [code: number, share: number][] = [
  [0, 0.55], // new
  [1, 0.25], // printed
  [2, 0.08], // mailed
  [3, 0.07], // emailed
  [5, 0.04], // void
  [6, 0.01], // refunded
];

/** One in ten checks is a round 1,500.00 (the rent), so the numeric term matches many rows. */
export const ROUND_AMOUNT_CENTS = 150_000;

export function invoiceNumber(i: number): string {
  return `INV-${String(i).padStart(7, '0')}`;
}

/**
 * Every seeded check has a client reference: `ord-` and the check's index in letters only
 * (a = 0 … z = 25, five of them), so references add no digits to search_text for the numeric
 * and invoice terms to find, and no word for the text terms.
 */
export function referenceId(i: number): string {
  let letters = '';
  for (let n = i, k = 0; k < 5 || n > 0; k += 1, n = Math.floor(n / 26))
    letters = String.fromCharCode(97 + (n % 26)) + letters;
  return `ord-${letters}`;
}

/** mulberry32: tiny, fast, and the same sequence on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function statusOf(r: number): number {
  let acc = 0;
  for (const [code, share] of STATUS_MIX) {
    acc += share;
    if (r < acc) return code;
  }
  return 0;
}

/** What a seeded check varies in; searchText reads the text fields the service would index. */
interface SeedRow
  extends Pick<
    NewCheck,
    | 'id'
    | 'payeeId'
    | 'serialNumber'
    | 'issueDate'
    | 'amountCents'
    | 'memo'
    | 'note'
    | 'accountNumber'
    | 'invoiceNumber'
    | 'referenceId'
    | 'createdAt'
  > {
  status: number;
}

/** A seeded check as a list filter sees it, for counting the matches a query must report. */
export interface SeededCheck {
  status: number;
  amountCents: number;
  /** Lower-cased, as the service stores it. */
  searchText: string;
  payeeName: string;
  referenceId: string | null;
}

export interface SeedResult {
  checks: number;
  ms: number;
  /** Checks (each with its statement row) written per second, index upkeep included. */
  checksPerSec: number;
  /** For each named predicate given to seedChecks, how many seeded checks it matched. */
  matches: Record<string, number>;
}

/** An owner's bank account and payees, which seeded checks are written to. */
export interface SeedTarget {
  owner: Owner;
  bankAccountId: string;
  payees: readonly { id: string; name: string }[];
}

/**
 * Seeds `count` checks for `target` and, when a neighbour is given, a copy of each for the
 * neighbour (its own ids, bank account and payees, in the same order), written in alternating
 * 1,000-row statements: a shared database where owners' rows interleave on disk, as they do when
 * several companies write at once. Matches are counted for `target` only.
 */
export async function seedChecks(
  db: Db,
  target: SeedTarget,
  neighbour: SeedTarget | null,
  count: number,
  predicates: Readonly<Record<string, (check: SeededCheck) => boolean>>,
  progress: (done: number) => void,
): Promise<SeedResult> {
  const { payees } = target;
  const random = prng(42);
  const payeeNames = new Map(payees.map((p) => [p.id, p.name]));
  const matches: Record<string, number> = Object.fromEntries(Object.keys(predicates).map((name) => [name, 0]));
  const started = performance.now();
  const firstAt = Date.now() - SPAN_MS;
  for (let start = 0; start < count; start += PER_TRANSACTION) {
    const end = Math.min(count, start + PER_TRANSACTION);
    const checks: SeedRow[] = [];
    for (let i = start; i < end; i += 1) {
      const createdAt = firstAt + Math.floor((i * SPAN_MS) / count);
      checks.push({
        // newId keeps ids unique and increasing within this process even for past times.
        id: newId('chk', createdAt),
        payeeId: payees[Math.floor(random() * payees.length)]?.id ?? null,
        serialNumber: String(FIRST_SERIAL + i),
        issueDate: new Date(createdAt).toISOString().slice(0, 10),
        amountCents: random() < 0.1 ? ROUND_AMOUNT_CENTS : 100 + Math.floor(random() * 499_900),
        memo: MEMOS[Math.floor(random() * MEMOS.length)] ?? null,
        note: null,
        accountNumber: null,
        invoiceNumber: invoiceNumber(i),
        referenceId: referenceId(i),
        status: statusOf(random()),
        createdAt,
      });
    }
    const texts = new Map<string, string>();
    for (const c of checks) {
      const seeded: SeededCheck = {
        status: c.status,
        amountCents: c.amountCents ?? 0,
        searchText: searchText(c),
        payeeName: payeeNames.get(c.payeeId ?? '') ?? '',
        referenceId: c.referenceId,
      };
      texts.set(c.id, seeded.searchText);
      for (const [name, test] of Object.entries(predicates)) if (test(seeded)) matches[name] = (matches[name] ?? 0) + 1;
    }
    // The neighbour's copy: its own ids, its payee at the same place in its list (same names, so
    // the same text).
    const payeeIndex = new Map(payees.map((p, i) => [p.id, i]));
    const copies =
      neighbour === null
        ? []
        : checks.map((c) => {
            const copy = {
              ...c,
              id: newId('chk', c.createdAt),
              payeeId: neighbour.payees[payeeIndex.get(c.payeeId ?? '') ?? -1]?.id ?? null,
            };
            texts.set(copy.id, texts.get(c.id) ?? '');
            return copy;
          });
    await db.transaction(async (tx) => {
      const write = async (into: SeedTarget, chunk: SeedRow[]) => {
        await tx.run(
          `INSERT INTO checks (${CHECK_COLUMNS.join(', ')}) VALUES ${chunk.map(() => CHECK_ROW).join(', ')}`,
          chunk.flatMap((c) => [
            c.id,
            into.owner.accountId,
            into.owner.env,
            into.bankAccountId,
            c.payeeId,
            c.serialNumber,
            c.issueDate,
            c.amountCents,
            c.memo,
            c.invoiceNumber,
            c.referenceId,
            c.status,
            texts.get(c.id) ?? '',
            c.createdAt,
          ]),
        );
        await tx.run(
          `INSERT INTO check_statements (check_id, status, created_at) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')}`,
          chunk.flatMap((c) => [c.id, 'created', c.createdAt]),
        );
      };
      for (let k = 0; k < checks.length; k += ROWS_PER_STATEMENT) {
        await write(target, checks.slice(k, k + ROWS_PER_STATEMENT));
        if (neighbour !== null) await write(neighbour, copies.slice(k, k + ROWS_PER_STATEMENT));
      }
    });
    progress(end);
  }
  await db.transaction(async (tx) => {
    for (const into of neighbour === null ? [target] : [target, neighbour]) {
      // Keep the bank account's counter above the seeded serials, as reserveSerials would have.
      await updateBankAccount(tx, into.owner, into.bankAccountId, { nextSerial: FIRST_SERIAL + count });
      // The per-status totals the service keeps (migration 005), recomputed the way that migration
      // first filled them, for this account only.
      const { accountId, env } = into.owner;
      await tx.run('DELETE FROM check_counts WHERE account_id = ? AND env = ?', [accountId, env]);
      await tx.run(
        'INSERT INTO check_counts (account_id, env, status, n) SELECT account_id, env, status, COUNT(*) FROM checks WHERE account_id = ? AND env = ? GROUP BY account_id, env, status',
        [accountId, env],
      );
    }
  });
  if (db.dialect === 'postgres') {
    // Autovacuum would analyse and vacuum a freshly loaded table within a minute or so; doing it
    // now makes plans (and index-only scans) not depend on when the measurement starts.
    await db.run('VACUUM ANALYZE checks');
    await db.run('VACUUM ANALYZE check_statements');
    // Migration 022's narrow texts, filled by the triggers: each partition as autovacuum would.
    await db.run('VACUUM ANALYZE check_texts');
    await db.run('ANALYZE payees');
    await db.run('ANALYZE check_counts');
  }
  const ms = performance.now() - started;
  const written = neighbour === null ? count : 2 * count;
  return { checks: count, ms, checksPerSec: (written / ms) * 1000, matches };
}
