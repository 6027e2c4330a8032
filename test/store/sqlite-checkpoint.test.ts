// A large SQLite commit does not copy the write-ahead log into the database file on the thread that
// commits (the server's event loop): the checkpoint runs on a thread of its own afterwards, and
// the log starts again from the beginning at the next write. Read from the files themselves.
// (SQLite only: PostgreSQL checkpoints in its own processes.)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHECKPOINT_AFTER_BYTES } from '../../src/store/sqlite-checkpointer.ts';
import { SqliteDb } from '../../src/store/sqlite.ts';

const ROWS = 2_000;
const ROW_BYTES = 4_000;

describe('SQLite WAL checkpoints', () => {
  let dir = '';
  let db: SqliteDb;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'checkwriter-checkpoint-'));
    db = new SqliteDb(join(dir, 'db.sqlite'), { checkpointThread: true });
    await db.run('CREATE TABLE big (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a commit past the threshold leaves the copy to the checkpoint thread, which then makes it', async () => {
    const file = join(dir, 'db.sqlite');
    const before = statSync(file).size;
    await db.transaction(async (tx) => {
      for (let i = 0; i < ROWS; i += 1) await tx.run('INSERT INTO big (body) VALUES (randomblob(?))', [ROW_BYTES]);
    });
    // Right after the commit: the rows are in the log, not yet in the database file.
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(ROWS * ROW_BYTES);
    expect(statSync(file).size).toBe(before);
    // Then the thread copies them.
    await db.checkpointer?.idle();
    expect(db.checkpointer?.completed).toBeGreaterThanOrEqual(1);
    expect(statSync(file).size).toBeGreaterThan(ROWS * ROW_BYTES);
    // The next write starts the log again from its beginning, its file cut back.
    await db.run('INSERT INTO big (body) VALUES (randomblob(10))');
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(CHECKPOINT_AFTER_BYTES);
    const [row] = await db.all<{ n: number }>('SELECT count(*) AS n FROM big');
    expect(row?.n).toBe(ROWS + 1);
  });

  it("a command's connection keeps SQLite's own checkpoints: no thread", async () => {
    const command = new SqliteDb(join(dir, 'command.sqlite'));
    try {
      await command.run('CREATE TABLE big (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
      await command.transaction(async (tx) => {
        for (let i = 0; i < ROWS; i += 1) await tx.run('INSERT INTO big (body) VALUES (randomblob(?))', [ROW_BYTES]);
      });
      expect(command.checkpointer).toBeNull();
      // SQLite's own checkpoint copied the rows at the COMMIT.
      expect(statSync(join(dir, 'command.sqlite')).size).toBeGreaterThan(ROWS * ROW_BYTES);
    } finally {
      await command.close();
    }
  });

  it('small commits ask for no checkpoint and start no thread', async () => {
    for (let i = 0; i < 20; i += 1) await db.run('INSERT INTO big (body) VALUES (randomblob(100))');
    expect(db.checkpointer?.completed).toBe(0);
    expect(db.checkpointer?.started).toBe(false);
  });
});
