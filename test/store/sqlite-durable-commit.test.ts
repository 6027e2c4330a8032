// A SQLite write returns only once its commit's log is on disk (src/store/sqlite-wal-sync.ts): the
// connection runs with synchronous = NORMAL, which survives a killed process but not a power cut,
// and the log is synced after the COMMIT, off the event loop, with the commits of the moment
// sharing one sync. The group commit's rules are held with a sync the test controls; that the
// sync really reaches the kernel between the commit and the return is read from strace, in a real
// process on a real file. (SQLite only: PostgreSQL syncs its own log at commit.)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { GroupSync } from '../../src/store/sqlite-wal-sync.ts';
import { SqliteDb } from '../../src/store/sqlite.ts';

/** A sync the test finishes by hand. */
function controlledSync() {
  const started: { finish: () => void; fail: (e: Error) => void }[] = [];
  const sync = () =>
    new Promise<void>((resolve, reject) => {
      started.push({ finish: resolve, fail: reject });
    });
  return { started, sync };
}

const settled = async (p: Promise<unknown>): Promise<string> => {
  let state = 'pending';
  p.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return state;
};

describe('the group commit', () => {
  it('a commit settles when a sync started after it has finished', async () => {
    const { started, sync } = controlledSync();
    const group = new GroupSync(sync);
    const first = group.afterCommit();
    expect(started).toHaveLength(1);
    expect(await settled(first)).toBe('pending');
    started[0]?.finish();
    expect(await settled(first)).toBe('resolved');
    expect(group.completed).toBe(1);
  });

  it('commits made while a sync runs share the next one, and wait for it, not for the running one', async () => {
    const { started, sync } = controlledSync();
    const group = new GroupSync(sync);
    const first = group.afterCommit();
    const laters = [group.afterCommit(), group.afterCommit(), group.afterCommit()];
    expect(started).toHaveLength(1);
    started[0]?.finish();
    expect(await settled(first)).toBe('resolved');
    // The running sync may have begun before them: they are not covered by it.
    for (const later of laters) expect(await settled(later)).toBe('pending');
    expect(started).toHaveLength(2);
    started[1]?.finish();
    for (const later of laters) expect(await settled(later)).toBe('resolved');
    expect(group.completed).toBe(2);
  });

  it('a failed sync fails the commits it covers; the next commit gets a sync of its own', async () => {
    const { started, sync } = controlledSync();
    const group = new GroupSync(sync);
    const first = group.afterCommit();
    const waiting = group.afterCommit();
    started[0]?.fail(new Error('EIO'));
    await expect(first).rejects.toThrow('EIO');
    // The waiting commit's own sync starts after the failed one and succeeds.
    expect(started).toHaveLength(2);
    started[1]?.finish();
    await expect(waiting).resolves.toBeUndefined();
    const next = group.afterCommit();
    expect(started).toHaveLength(3);
    started[2]?.finish();
    await expect(next).resolves.toBeUndefined();
  });
});

describe('a SQLite write and its log', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'checkwriter-durable-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('each write that commits waits for a sync; a read does not', async () => {
    const db = new SqliteDb(join(dir, 'db.sqlite'));
    try {
      await db.run('CREATE TABLE t (id INTEGER PRIMARY KEY)');
      const afterCreate = db.durableSyncs;
      expect(afterCreate).toBeGreaterThanOrEqual(1);
      await db.transaction(async (tx) => {
        await tx.run('INSERT INTO t DEFAULT VALUES');
        await tx.run('INSERT INTO t DEFAULT VALUES');
      });
      expect(db.durableSyncs).toBe(afterCreate + 1);
      await db.all('SELECT * FROM t');
      expect(db.durableSyncs).toBe(afterCreate + 1);
      // Ten writers at once: every one returns after a sync, and they share them.
      await Promise.all(
        Array.from({ length: 10 }, () => db.transaction((tx) => tx.run('INSERT INTO t DEFAULT VALUES'))),
      );
      expect(db.durableSyncs).toBeGreaterThan(afterCreate + 1);
      expect(db.durableSyncs).toBeLessThan(afterCreate + 1 + 10);
    } finally {
      await db.close();
    }
  });

  it('a sync that cannot be made answers 503 with Retry-After, and the commit is there', async () => {
    const file = join(dir, 'db.sqlite');
    const db = new SqliteDb(file);
    try {
      // The log is opened for syncing at the first commit; with its name gone, that open fails
      // (SQLite keeps writing to the file it holds open).
      await db.transaction(async (tx) => {
        unlinkSync(`${file}-wal`);
        await tx.run('CREATE TABLE t (id INTEGER PRIMARY KEY)');
      });
      expect.unreachable('the write should have answered 503');
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('unavailable');
      expect((error as AppError).headers).toMatchObject({ 'retry-after': '2' });
    }
    const rows = await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE name = 't'");
    expect(rows).toHaveLength(1);
    await db.close();
  });
});

const CHILD = fileURLToPath(new URL('./children/commit-then-say.ts', import.meta.url));
const hasStrace = spawnSync('strace', ['-V']).status === 0;

describe.skipIf(!hasStrace)('what the kernel is asked between a commit and its return (strace)', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'checkwriter-durable-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['a transaction', 'transaction'],
    ['a statement alone', 'run'],
  ])('%s: the log is written, then fdatasync of the log, then the write returns', (_what, mode) => {
    const file = join(dir, 'db.sqlite');
    const trace = join(dir, 'trace');
    const child = spawnSync(
      'strace',
      [
        '-f',
        '-qq',
        '-e',
        'trace=openat,pwrite64,fdatasync,fsync,write',
        '-o',
        trace,
        process.execPath,
        '--import',
        'tsx',
        CHILD,
        file,
        mode,
      ],
      { encoding: 'utf8' },
    );
    expect(child.stdout).toBe('before\nafter\n');
    const lines = readFileSync(trace, 'utf8').split('\n');
    const from = lines.findIndex((l) => l.includes('write(1, "before\\n"'));
    const to = lines.findIndex((l) => l.includes('write(1, "after\\n"'));
    expect(from).toBeGreaterThan(-1);
    expect(to).toBeGreaterThan(from);
    // The descriptors of the log: SQLite's own (written) and the one it is synced through.
    // An open another thread interrupts ends on a later line of the same thread: `<... openat resumed>) = fd`.
    const walFds = new Set<string>();
    const opening = new Set<string>();
    for (const l of lines) {
      const [, thread = '', call = ''] = /^(\d+)\s+(.*)$/.exec(l) ?? [];
      if (/^openat\(.*"[^"]*db\.sqlite-wal"/.test(call)) {
        const fd = / = (\d+)$/.exec(call)?.[1];
        if (fd !== undefined) walFds.add(fd);
        else opening.add(thread);
      } else if (opening.has(thread) && call.startsWith('<... openat resumed>')) {
        opening.delete(thread);
        const fd = / = (\d+)$/.exec(call)?.[1];
        if (fd !== undefined) walFds.add(fd);
      }
    }
    expect(walFds.size).toBeGreaterThanOrEqual(1);
    const between = lines.slice(from, to);
    // strace -f starts each line with the thread's id; a call another thread interrupts is
    // printed as `call(fd, … <unfinished ...>` and finished later as `<... call resumed>`.
    const calls = between.map((l) => l.replace(/^\d+\s+/, ''));
    const onLog = (l: string, call: RegExp) => {
      const fd = call.exec(l)?.[1];
      return fd !== undefined && walFds.has(fd);
    };
    let lastLogWrite = -1;
    calls.forEach((l, i) => {
      if (onLog(l, /^pwrite64\((\d+),/)) lastLogWrite = i;
    });
    expect(lastLogWrite).toBeGreaterThan(-1);
    const sync = calls.findIndex((l, i) => i > lastLogWrite && onLog(l, /^f(?:data)?sync\((\d+)[) ]/));
    expect(sync, between.join('\n')).toBeGreaterThan(lastLogWrite);
  });
});
