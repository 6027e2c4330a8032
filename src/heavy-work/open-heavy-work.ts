// Which heavy work a server runs: the pool, or the main thread when HEAVY_WORK_THREADS=0.
import type { HeavyWorkConfig } from '../config.ts';
import type { HeavyWork } from './heavy-work.ts';
import { InlineHeavyWork } from './inline.ts';
import { type HeavyWorkLog, PiscinaHeavyWork } from './piscina-pool.ts';

export function openHeavyWork(settings: HeavyWorkConfig, log?: HeavyWorkLog): HeavyWork {
  return settings.threads === 0 ? new InlineHeavyWork() : new PiscinaHeavyWork(settings, log);
}
