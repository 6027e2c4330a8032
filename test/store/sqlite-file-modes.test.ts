// Who may read the SQLite files: the database, its -wal and -shm, the server secret beside it, and
// a `checkwriter backup` copy are their owner's only (0600) from the moment they exist, and a
// backup is never written through a symlink. The process's umask is set to the common 022 here, so
// a file left to the umask would show up as 0644. (SQLite only: PostgreSQL's files are the
// server's.)
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeys, ensureAccount } from '../../src/services/api-key.service.ts';
import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/store/migrate.ts';
import { backupSqlite } from '../../src/store/sqlite-backup.ts';
import { SqliteDb } from '../../src/store/sqlite.ts';

const modeOf = (path: string): number => lstatSync(path).mode & 0o777;
const octal = (mode: number): string => mode.toString(8).padStart(4, '0');

let savedUmask = 0;
beforeAll(() => {
  savedUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(savedUmask);
});

describe('SQLite database files', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'checkwriter-modes-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a new database, its -wal and -shm, and the secret file are created 0600', async () => {
    const file = join(dir, 'checkwriter.db');
    const db = new SqliteDb(file);
    try {
      await migrate(db);
      const config = loadConfig({ DATABASE_URL: `sqlite:${file}`, KEY_SIGNING_SECRET: '', LOG_LEVEL: 'silent' });
      const keys = await ApiKeys.open(db, config);
      const { account } = await ensureAccount(db, {
        email: 'modes@example.com',
        verified: true,
        phone: '+14155552671',
      });
      await keys.create(account.id, 'test', 'a key');
      // WAL mode with a write done: both companions exist while the connection is open.
      const files = readdirSync(dir).sort();
      expect(files).toEqual(['checkwriter.db', 'checkwriter.db-shm', 'checkwriter.db-wal', 'checkwriter.secret']);
      expect(Object.fromEntries(files.map((f) => [f, octal(modeOf(join(dir, f)))]))).toEqual({
        'checkwriter.db': '0600',
        'checkwriter.db-shm': '0600',
        'checkwriter.db-wal': '0600',
        'checkwriter.secret': '0600',
      });
    } finally {
      await db.close();
    }
  });

  it('an existing 0644 database and -wal (an older version) are narrowed to 0600 when opened', async () => {
    const file = join(dir, 'old.db');
    const first = new SqliteDb(file);
    await migrate(first);
    await first.close();
    const { chmodSync } = await import('node:fs');
    chmodSync(file, 0o644);
    writeFileSync(`${file}-wal`, '');
    chmodSync(`${file}-wal`, 0o644);
    const again = new SqliteDb(file);
    try {
      expect(octal(modeOf(file))).toBe('0600');
      expect(octal(modeOf(`${file}-wal`))).toBe('0600');
      expect(octal(modeOf(`${file}-shm`))).toBe('0600');
    } finally {
      await again.close();
    }
  });
});

describe('checkwriter backup (store/sqlite-backup.ts)', () => {
  let dir = '';
  let source = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'checkwriter-backup-modes-'));
    source = join(dir, 'live.db');
    const db = new SqliteDb(source);
    await migrate(db);
    // Some bulk, so the copy takes more than one step of the backup API.
    for (let i = 0; i < 200; i++)
      await ensureAccount(db, { email: `owner${i}@example.com`, verified: true, phone: '+14155552671' });
    await db.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('no file it writes is readable by others at any moment of the copy', async () => {
    const folder = mkdtempSync(join(dir, 'out-'));
    const out = join(folder, 'copy.db');
    const seen = new Map<string, number>();
    let done = false;
    const backup = backupSqlite(source, out).finally(() => {
      done = true;
    });
    // Between the backup API's steps (setImmediate) and its file checks, look at every file in
    // the output folder and keep the widest mode each had.
    while (!done) {
      for (const name of readdirSync(folder)) {
        try {
          seen.set(name, (seen.get(name) ?? 0) | modeOf(join(folder, name)));
        } catch {
          // removed between the listing and the look
        }
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    const result = await backup;
    expect(result.counts.accounts).toBe(200);
    // Files were seen while the copy was being written, not only the finished one.
    expect(seen.size).toBeGreaterThan(0);
    const wide = [...seen].filter(([, mode]) => (mode & 0o077) !== 0).map(([name, mode]) => `${name} ${octal(mode)}`);
    expect(wide).toEqual([]);
    expect(readdirSync(folder)).toEqual(['copy.db']);
    expect(octal(modeOf(out))).toBe('0600');
  });

  it('refuses an --out that is a symlink, dangling or not, and leaves its target untouched', async () => {
    const folder = mkdtempSync(join(dir, 'links-'));
    const dangling = join(folder, 'dangling.db');
    const target = join(folder, 'not-yet-there.db');
    symlinkSync(target, dangling);
    await expect(backupSqlite(source, dangling)).rejects.toThrow(/symbolic link/);
    expect(existsSync(target)).toBe(false);

    const victim = join(folder, 'victim.txt');
    writeFileSync(victim, 'keep me');
    const pointing = join(folder, 'pointing.db');
    symlinkSync(victim, pointing);
    await expect(backupSqlite(source, pointing)).rejects.toThrow(/symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    // Nothing else was left in the folder (no partial copy).
    expect(readdirSync(folder).sort()).toEqual(['dangling.db', 'pointing.db', 'victim.txt']);
  });

  it('names a missing folder', async () => {
    await expect(backupSqlite(source, join(dir, 'no-such-folder', 'copy.db'))).rejects.toThrow(/does not exist/);
  });

  it('never overwrites a file', async () => {
    const folder = mkdtempSync(join(dir, 'exists-'));
    const out = join(folder, 'copy.db');
    writeFileSync(out, 'an older copy');
    await expect(backupSqlite(source, out)).rejects.toThrow(/exists/);
    expect(readFileSync(out, 'utf8')).toBe('an older copy');
    expect(readdirSync(folder)).toEqual(['copy.db']);
  });
});
