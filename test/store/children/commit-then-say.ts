// A child process for sqlite-durable-commit.test.ts: a SqliteDb on the file argv[2], one table, then
// "before" on standard output, one committed write (a transaction, or a statement alone with
// argv[3] = run), and "after" once the write has returned. The test runs it under strace and reads
// what the kernel was asked to do between the two words.
import { SqliteDb } from '../../../src/store/sqlite.ts';

const db = new SqliteDb(process.argv[2] as string);
await db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
process.stdout.write('before\n');
if (process.argv[3] === 'run') await db.run("INSERT INTO t (body) VALUES ('one')");
else
  await db.transaction(async (tx) => {
    await tx.run("INSERT INTO t (body) VALUES ('one')");
    await tx.run("INSERT INTO t (body) VALUES ('two')");
  });
process.stdout.write('after\n');
await db.close();
