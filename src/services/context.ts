// What every service call needs: the database and a clock. Gathered once in app.ts (no DI container).
import type { Config } from '../config.ts';
import type { Vault } from '../domain/sealed.ts';
import type { HeavyWork } from '../heavy-work/heavy-work.ts';
import type { Db } from '../store/db.ts';

export interface ServiceContext {
  readonly db: Db;
  readonly config: Config;
  readonly now: () => number;
  /** The server secret (payee link and account tokens, CSRF tokens); never stored in the database. */
  readonly secret: Buffer;
  /** Seals and opens values encrypted at rest (bank account numbers). */
  readonly vault: Vault;
  /** Where CPU-heavy steps run (PDF rendering, positive pay files): a worker pool in the server. */
  readonly heavyWork: HeavyWork;
}
