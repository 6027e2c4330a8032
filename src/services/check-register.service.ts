// The check register of a bank account: its checks in register order (issue date, then creation)
// with the running total of outstanding checks, and the outstanding count and total on top
// (docs/reconciliation.md). Reads only: nothing here writes.
import type { BankAccount } from '../domain/bank-account.ts';
import type { Check } from '../domain/check.ts';
import { isOutstanding, type Outstanding } from '../domain/clearing.ts';
import type { Owner } from '../domain/owner.ts';
import type { Db } from '../store/db.ts';
import { type AsOf, ChangeKeyedCache } from './change-keyed-cache.ts';
import type { Paged } from '../domain/paging.ts';
import * as counts from '../store/checks/counts.repository.ts';
import * as checks from '../store/checks/checks.repository.ts';
import type { Page } from '../store/owned-queries.ts';
import * as checkRegister from '../store/check-register.repository.ts';
import { getBankAccount, listBankAccounts } from './bank-account.service.ts';
import type { ServiceContext } from './context.ts';

/** Registers at least this long get page anchors; shorter ones are skipped through directly. */
const ANCHORS_FROM = 10_000;
const ANCHOR_EVERY = 1_000;

/**
 * Counting the anchors is one pass over the bank account's index (about 100 ms on SQLite, 50 ms
 * on PostgreSQL at 100,000 checks). While the owner's checks keep changing, they are recounted at
 * most this often; pages in between skip from the nearer end (a few ms more), and the length —
 * which the paging and the totals need exact — is counted again each time (5–10 ms).
 */
const ANCHORS_RECOUNT_MS = 10_000;

/** A register's length and page anchors as of one value of the owner's change counter. */
interface Shape extends AsOf {
  length: number;
  anchors: checkRegister.CheckRegisterKey[];
  /** When the anchors were counted (0: none counted). */
  anchorsAt: number;
}

const shapes = new WeakMap<Db, ChangeKeyedCache<Shape>>();

/**
 * How long the register is, and where every thousandth check stands: counted once and reused
 * while the owner's checks stand still (check_changes, migration 011, moves on every write to
 * them), so a page neither counts 100,000 checks nor skips tens of thousands of index entries.
 */
async function registerShape(ctx: ServiceContext, owner: Owner, bankAccountId: string): Promise<Shape> {
  let cache = shapes.get(ctx.db);
  if (cache === undefined) {
    cache = new ChangeKeyedCache<Shape>(256);
    shapes.set(ctx.db, cache);
  }
  const changes = await counts.checkChanges(ctx.db, owner);
  const now = ctx.now();
  const known = cache.get(bankAccountId, changes);
  // Anchors are counted when none were within the last ANCHORS_RECOUNT_MS.
  const anchorsDue = (shape: Shape | undefined): boolean =>
    shape === undefined || now - shape.anchorsAt >= ANCHORS_RECOUNT_MS;
  // Known, and anchored (or short, or between two counts of a changing register): as it is.
  if (known !== undefined && (known.length < ANCHORS_FROM || known.anchors.length > 0 || !anchorsDue(known)))
    return known;
  const length = known?.length ?? (await checkRegister.checkRegisterLength(ctx.db, bankAccountId));
  const earlier = known ?? cache.peek(bankAccountId);
  const shape: Shape =
    length < ANCHORS_FROM
      ? { changes, length, anchors: [], anchorsAt: 0 }
      : anchorsDue(earlier)
        ? {
            changes,
            length,
            anchors: await checkRegister.checkRegisterAnchors(ctx.db, bankAccountId, ANCHOR_EVERY),
            anchorsAt: now,
          }
        : { changes, length, anchors: [], anchorsAt: earlier?.anchorsAt ?? 0 };
  cache.set(bankAccountId, shape);
  return shape;
}

export interface CheckRegisterRow {
  check: Check;
  outstanding: boolean;
  /** Outstanding total through this check, in register order (cents). */
  runningCents: number;
}

export interface CheckRegisterView {
  bankAccount: BankAccount;
  /** Checks in the register (every status). */
  total: number;
  outstanding: Outstanding;
  rows: CheckRegisterRow[];
}

export async function checkRegisterOf(
  ctx: ServiceContext,
  owner: Owner,
  bankAccountId: string,
  paging: { limit: number; offset: number },
): Promise<CheckRegisterView> {
  const bankAccount = await getBankAccount(ctx, owner, bankAccountId);
  const outstanding = await checkRegister.outstandingOf(ctx.db, bankAccount.id);
  const shape = await registerShape(ctx, owner, bankAccount.id);
  const total = shape.length;
  const anchor = shape.anchors[Math.floor(paging.offset / ANCHOR_EVERY)];
  const entries = await checkRegister.checkRegisterPage(
    ctx.db,
    bankAccount.id,
    paging.limit,
    paging.offset,
    total,
    anchor === undefined ? null : { key: anchor, skip: paging.offset % ANCHOR_EVERY },
  );
  // The ids come from the bank account's own index (scoped above); checksInListOrder reads them by
  // primary key. (findChecks' owner filter led SQLite's planner through the owner's whole list:
  // 600 ms for 50 ids among 100,000 checks.)
  const found = new Map(
    (
      await checks.checksInListOrder(
        ctx.db,
        entries.map((e) => e.id),
      )
    ).map((c) => [c.id, c]),
  );
  const rows = entries.flatMap((e) => {
    const check = found.get(e.id);
    return check === undefined ? [] : [{ check, outstanding: isOutstanding(check), runningCents: e.runningCents }];
  });
  return { bankAccount, total, outstanding, rows };
}

/** The owner's bank accounts (a page of them) with each one's outstanding count and total. */
export async function outstandingByBankAccount(
  ctx: ServiceContext,
  owner: Owner,
  page: Page,
): Promise<Paged<{ bankAccount: BankAccount; outstanding: Outstanding }>> {
  const accounts = await listBankAccounts(ctx, owner, page);
  const items = [];
  for (const bankAccount of accounts.items)
    items.push({ bankAccount, outstanding: await checkRegister.outstandingOf(ctx.db, bankAccount.id) });
  return { total: accounts.total, items };
}
