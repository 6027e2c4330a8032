// The ServiceContext a command builds for itself: the database it opened, the server secret's keys
// and heavy work on its own thread — a command serves nobody else while it works, so a worker pool
// would only add its start-up (docs/architecture.md, src/heavy-work/).
import type { Config } from '../config.ts';
import { InlineHeavyWork } from '../heavy-work/inline.ts';
import type { ApiKeys } from '../services/api-key.service.ts';
import type { ServiceContext } from '../services/context.ts';
import type { Db } from '../store/db.ts';

export function commandContext(db: Db, config: Config, keys: ApiKeys): ServiceContext {
  return { db, config, now: Date.now, secret: keys.secret, vault: keys.vault, heavyWork: new InlineHeavyWork() };
}
