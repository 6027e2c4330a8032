// What every service call needs: the database and a clock. Gathered once in app.ts (no DI container).
import type { Config } from '../config.ts';
import type { Db } from '../store/db.ts';

export interface ServiceContext {
  readonly db: Db;
  readonly config: Config;
  readonly now: () => number;
  /** The service secret (payee link tokens). */
  readonly secret: Buffer;
}
