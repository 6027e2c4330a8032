// The runner of accepted imports: a queued (or interrupted) import is written in ONE transaction
// through the same services the API uses, so it is all or nothing and everything it made is seen
// by GET /checks and GET /payees. A process that stops mid-import loses only the open transaction:
// the import is still queued or running in the table, and the next server (or CLI run) does it
// again, whole (ImportRunner below).
import { record as recordAudit } from '../audit.service.ts';
import { AsyncResource } from 'node:async_hooks';
import type { Owner, Principal } from '../../domain/owner.ts';
import { AppError } from '../../errors.ts';
import { transactionJoinedByCalls } from '../../store/db.ts';
import type { ImportRecord } from '../../domain/import-record.ts';
import * as importStore from '../../store/imports.repository.ts';
import { createChecks } from '../checks/write.service.ts';
import type { ServiceContext } from '../context.ts';
import { createPayees } from '../payee.service.ts';
import { DRAFT_TTL_MS, EMPTY_RESULT, type ImportInput, type ImportResult, type RowError, rowMessage } from './model.ts';
import { systemActor } from '../../domain/actor.ts';
import { yieldToLoop } from '../yield-to-loop.ts';

/**
 * Rows per service call inside the import's transaction: the progress steps, and the size of a
 * batch. On SQLite every statement is synchronous, so a chunk holds the event loop from start to
 * end (a few ms for 50 checks on a quiet machine); between chunks the runner gives the loop back
 * (`yieldToLoop`), so /healthz and the other requests' work go on while a large import is written.
 */
const CHUNK = 50;
/** Attempts at an import that fails for a reason that is not its data (the database went away). */
const MAX_ATTEMPTS = 3;
/** How often the runner looks for stale drafts: one DELETE an hour, not one per 5-s tick. */
const DRAFT_SWEEP_MS = 60 * 60 * 1000;

/** The row of a chunk's error ("The checks.3.serialNumber ..." names the 4th item of the chunk). */
function rowOfChunkError(message: string, rowsOfChunk: readonly number[]): number {
  const match = /\b(?:checks|payees)\.(\d+)\./.exec(message);
  return match === null ? 0 : (rowsOfChunk[Number(match[1])] ?? 0);
}

async function writeChecks(
  ctx: ServiceContext,
  principal: Principal,
  input: ImportInput,
  progress: (done: number) => void,
): Promise<ImportResult> {
  const createdPayeeIds: string[] = [];
  const newPayeeIds = new Map<string, string>();
  for (let at = 0; at < input.newPayees.length; at += CHUNK) {
    await yieldToLoop();
    const made = await createPayees(
      ctx,
      principal,
      input.newPayees.slice(at, at + CHUNK).map((name) => ({ name })),
    );
    for (const payee of made) {
      newPayeeIds.set(payee.name, payee.id);
      createdPayeeIds.push(payee.id);
    }
  }
  // Rows with their own check numbers go first: each batch moves the bank account's counter above
  // its numbers, so the numbers given to the other rows afterwards cannot meet them.
  const ordered = [
    ...input.checks.filter((p) => p.item.serialNumber !== undefined),
    ...input.checks.filter((p) => p.item.serialNumber === undefined),
  ];
  const checkIds = new Array<string>(input.checks.length).fill('');
  let done = 0;
  for (let at = 0; at < ordered.length; at += CHUNK) {
    await yieldToLoop();
    const chunk = ordered.slice(at, at + CHUNK);
    const items = chunk.map((p) =>
      p.newPayee === null ? p.item : { ...p.item, payeeId: newPayeeIds.get(p.newPayee) ?? '' },
    );
    try {
      const created = await createChecks(ctx, principal, items);
      created.forEach((c, i) => {
        checkIds[(chunk[i]?.row ?? 1) - 1] = c.checkId;
      });
    } catch (error) {
      if (error instanceof AppError)
        throw new RowFailure(
          rowOfChunkError(
            error.message,
            chunk.map((p) => p.row),
          ),
          error,
        );
      throw error;
    }
    done += chunk.length;
    progress(done);
  }
  return { checkIds, payeeIds: [], createdPayeeIds };
}

async function writePayees(
  ctx: ServiceContext,
  owner: Owner,
  input: ImportInput,
  progress: (done: number) => void,
): Promise<ImportResult> {
  const payeeIds: string[] = [];
  for (let at = 0; at < input.payees.length; at += CHUNK) {
    await yieldToLoop();
    try {
      for (const payee of await createPayees(ctx, owner, input.payees.slice(at, at + CHUNK))) payeeIds.push(payee.id);
    } catch (error) {
      if (error instanceof AppError)
        throw new RowFailure(
          rowOfChunkError(
            error.message,
            input.payees.slice(at, at + CHUNK).map((_, i) => at + i + 1),
          ),
          error,
        );
      throw error;
    }
    progress(payeeIds.length);
  }
  return { checkIds: [], payeeIds, createdPayeeIds: [] };
}

/** A rule refused a row while writing (something changed since the preview): the import fails whole. */
class RowFailure extends Error {
  constructor(
    readonly row: number,
    readonly refusal: AppError,
  ) {
    super(refusal.message);
  }
}

/**
 * Writes a queued (or interrupted) import in one transaction: succeeded with what it made, or
 * failed with why and nothing made. Returns the import as it ended, or undefined when there was
 * nothing to do (finished already, or another process holds it).
 */
export async function runImport(
  ctx: ServiceContext,
  id: string,
  progress: (done: number) => void = () => undefined,
): Promise<ImportRecord | undefined> {
  await importStore.markRunning(ctx.db, id, ctx.now());
  let owner: Owner | null = null;
  try {
    const ran = await transactionJoinedByCalls(ctx.db, async (tx) => {
      const record = await importStore.claimImport(tx, id);
      if (record === undefined) return false;
      owner = { accountId: record.accountId, env: record.env };
      // A turn of the loop of its own for each long step at the ends of the import (reading its
      // rows back, the result and the COMMIT): together in one turn they held /healthz too long.
      await yieldToLoop();
      const input = JSON.parse(record.input) as ImportInput;
      // Written as whoever started it: its checks are theirs (the approvals' "nobody approves a
      // check they wrote" holds for an import too), and the audit trail names them.
      const principal: Principal = {
        ...owner,
        keyId: input.keyId ?? '',
        timeZone: input.timeZone,
        actor: input.actor ?? systemActor('import'),
      };
      const result =
        input.kind === 'checks'
          ? await writeChecks(ctx, principal, input, progress)
          : await writePayees(ctx, principal, input, progress);
      await importStore.finishImport(tx, id, 'succeeded', record.rowsTotal, '[]', JSON.stringify(result), ctx.now());
      await recordAudit(
        tx,
        principal,
        [
          {
            action: 'import.complete',
            objectType: 'import',
            objectId: id,
            changes: [{ field: 'rows', old: null, new: String(record.rowsTotal) }],
          },
        ],
        ctx.now(),
      );
      await yieldToLoop();
      return true;
    });
    if (!ran) return undefined;
  } catch (error) {
    let failure: RowError[];
    if (!(error instanceof RowFailure)) {
      const record = await importStore.claimImport(ctx.db, id);
      if (record === undefined || record.attempts < MAX_ATTEMPTS) throw error;
      failure = [
        {
          row: 0,
          line: 0,
          messages: ['The import could not be written (a server error); nothing was imported. Try again.'],
        },
      ];
    } else {
      const record = await importStore.claimImport(ctx.db, id);
      const lines = record === undefined ? [] : (JSON.parse(record.input) as ImportInput).lines;
      failure = [{ row: error.row, line: lines[error.row - 1] ?? 0, messages: [rowMessage(error.refusal.message)] }];
    }
    await importStore.finishImport(
      ctx.db,
      id,
      'failed',
      0,
      JSON.stringify(failure),
      JSON.stringify(EMPTY_RESULT),
      ctx.now(),
    );
  }
  const ended = await importStore.claimImport(ctx.db, id);
  if (ended !== undefined) return ended;
  return owner === null ? undefined : importStore.findImport(ctx.db, owner, id);
}

export interface RunnerLog {
  error(entry: object, message: string): void;
}

const runners = new WeakMap<object, ImportRunner>();

/** The runner of this database's server, to wake it when an import is queued. */
export function importRunner(ctx: ServiceContext): ImportRunner | undefined {
  return runners.get(ctx.db);
}

/**
 * Runs queued imports in the background of a server, one at a time: at start (so an import a
 * stopped process left is done again), when woken (a new import), and every few seconds (imports
 * queued by another process). Progress of the running import is kept in memory: its own
 * transaction's counts are not visible to other connections until it commits.
 */
export class ImportRunner {
  private readonly progress = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private draining: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  // Bound here, outside any request: a drain woken by a request must not join its transaction.
  private readonly drainOutside = AsyncResource.bind(() => this.drain());
  /** When stale drafts were last deleted (ctx.now() time): at most once per DRAFT_SWEEP_MS. */
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly log: RunnerLog,
    private readonly pollMs = 5_000,
  ) {}

  start(): void {
    runners.set(this.ctx.db, this);
    this.wake();
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
  }

  /** Looks for work now (or right after the current import). */
  wake(): void {
    if (this.stopped) return;
    if (this.draining !== null) {
      this.again = true;
      return;
    }
    this.draining = this.drainOutside().finally(() => {
      this.draining = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  progressOf(id: string): number | undefined {
    return this.progress.get(id);
  }

  /** Stops looking for work and waits for the running import's transaction to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
    if (runners.get(this.ctx.db) === this) runners.delete(this.ctx.db);
    await this.draining;
  }

  private async drain(): Promise<void> {
    await this.sweepDrafts();
    try {
      for (;;) {
        if (this.stopped) return;
        const ids = await importStore.unfinishedImportIds(this.ctx.db, 5);
        let ran = false;
        for (const id of ids) {
          if (this.stopped) return;
          this.progress.set(id, 0);
          try {
            ran = (await runImport(this.ctx, id, (done) => this.progress.set(id, done))) !== undefined || ran;
          } finally {
            this.progress.delete(id);
          }
        }
        if (!ran) return;
      }
    } catch (error) {
      this.log.error({ err: error }, 'import runner: an import could not be run; it is tried again later');
    }
  }

  /**
   * Deletes drafts nobody confirmed within DRAFT_TTL_MS; one statement, at most hourly. A failure
   * is logged on its own and tried again an hour later: it must not keep queued imports waiting.
   */
  private async sweepDrafts(): Promise<void> {
    const now = this.ctx.now();
    if (now - this.sweptAt < DRAFT_SWEEP_MS) return;
    this.sweptAt = now;
    try {
      await importStore.deleteDraftsBefore(this.ctx.db, now - DRAFT_TTL_MS);
    } catch (error) {
      this.log.error({ err: error }, 'import runner: old drafts could not be deleted; tried again in an hour');
    }
  }
}
