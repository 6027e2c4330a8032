// Whether the database's disk is full, as this process last saw it: set by a write refused for
// lack of space (SQLITE_FULL, SQLITE_IOERR_*, PostgreSQL 53100), cleared by the next write that
// commits. /readyz reads it (with a cheap check of free space on SQLite) instead of writing a row
// per probe, and /metrics shows it.
import { isDiskFullCode } from '../errors.ts';

/** After this long without another refusal, readiness asks the disk again instead of the memory. */
export const DISK_FULL_RECENT_MS = 10_000;

export interface StorageState {
  /** A write was refused for lack of space and none has committed since. */
  full: boolean;
  /** Writes refused for lack of space since the process started. */
  refusals: number;
}

export class StorageRoom {
  private fullSince: number | null = null;
  private lastRefusalAt = Number.NEGATIVE_INFINITY;
  private refusals = 0;

  /** Called with every database error of a write; notes those that say the disk is full. */
  noteError(error: unknown): void {
    const cause = (error as { cause?: unknown }).cause ?? error;
    const code = (cause as { code?: unknown } | null)?.code;
    if (!isDiskFullCode(code)) return;
    this.refusals += 1;
    this.lastRefusalAt = performance.now();
    this.fullSince ??= Date.now();
  }

  /** A write committed: there is room again. */
  noteCommit(): void {
    this.fullSince = null;
  }

  /** Refused within the last DISK_FULL_RECENT_MS, with no commit since. */
  recentlyFull(): boolean {
    return this.fullSince !== null && performance.now() - this.lastRefusalAt < DISK_FULL_RECENT_MS;
  }

  state(): StorageState {
    return { full: this.fullSince !== null, refusals: this.refusals };
  }
}
