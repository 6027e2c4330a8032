// The thread of sqlite-checkpointer.ts: its own connection to the database file, which copies the
// write-ahead log into the database (a PASSIVE checkpoint: it takes what no reader still needs,
// waits for nobody and never blocks the server's writes) each time it is asked.
import { parentPort, workerData } from 'node:worker_threads';
import type { CheckpointReply } from './sqlite-checkpointer.ts';
import { Database } from './sqlite-driver.ts';

const { path } = workerData as { path: string };
const db = new Database(path, { timeout: 5000 });
db.pragma('wal_autocheckpoint = 0');

parentPort?.on('message', () => {
  let reply: CheckpointReply;
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    reply = { log: row?.log ?? 0, checkpointed: row?.checkpointed ?? 0 };
  } catch (error) {
    reply = { log: -1, checkpointed: -1, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
