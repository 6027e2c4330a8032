// A CSV import as every layer sees it: one upload of an owner, its state and what it holds. Stored
// by store/imports.repository.ts; its steps are services/imports/.
import type { Environment } from './owner.ts';

export type ImportState = 'draft' | 'queued' | 'running' | 'succeeded' | 'failed';

export interface ImportRecord {
  id: string;
  accountId: string;
  env: Environment;
  kind: 'checks' | 'payees';
  state: ImportState;
  fileName: string;
  rowsTotal: number;
  rowsDone: number;
  /** JSON: what the import writes (services/imports/model.ts, ImportInput), or a draft's CSV. */
  input: string;
  /** JSON: RowError[]. */
  errors: string;
  /** JSON: ImportResult. */
  result: string;
  attempts: number;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}
