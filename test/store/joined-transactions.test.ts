// transactionJoinedByCalls (src/store/db.ts): every query of the call chain joins its transaction,
// and the storage that carries it is disabled when no joined transaction runs (its async hooks off
// for the rest of the process). Disabling must never take a transaction away from a call chain
// still inside one: two overlapping on PostgreSQL (the first ends while the second still works),
// and one after another on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinedTo, joinedTransactionsNow, transactionJoinedByCalls } from '../../src/store/db.ts';
import { dialects, freshDatabase, type TestDatabase } from '../support/databases.ts';

describe.each(dialects())('joined transactions (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase(dialect);
    await database.db.run('CREATE TABLE joined_probe (name TEXT PRIMARY KEY)');
  });
  afterAll(() => database.drop());

  const count = async (): Promise<number> =>
    Number((await database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM joined_probe'))?.n);

  it('a call chain keeps its transaction across awaits while another one ends; none is left after both', async () => {
    const db = database.db;
    let firstEnded!: () => void;
    const firstHasEnded = new Promise<void>((resolve) => {
      firstEnded = resolve;
    });
    let secondIn!: () => void;
    const secondIsIn = new Promise<void>((resolve) => {
      secondIn = resolve;
    });
    const second = async (): Promise<boolean[]> => {
      // Both transactions run at once only where the database has more than one connection.
      const seen: boolean[] = [];
      await db.run('INSERT INTO joined_probe (name) VALUES (?)', ['second-1']);
      seen.push(joinedTo(db) !== undefined);
      secondIn();
      if (dialect === 'postgres') await firstHasEnded;
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(joinedTo(db) !== undefined);
      // Through db, not tx: it joins because the chain still carries its transaction.
      await db.run('INSERT INTO joined_probe (name) VALUES (?)', ['second-2']);
      return seen;
    };
    const first = transactionJoinedByCalls(db, async () => {
      await db.run('INSERT INTO joined_probe (name) VALUES (?)', ['first']);
      // PostgreSQL: the first ends only once the second is inside its own transaction.
      if (dialect === 'postgres') await secondIsIn;
      return joinedTo(db) !== undefined;
    }).finally(() => firstEnded());
    const late = transactionJoinedByCalls(db, second);
    expect(await first).toBe(true);
    expect(await late).toEqual([true, true]);
    expect(await count()).toBe(3);
    expect(joinedTransactionsNow()).toBe(0);
    expect(joinedTo(db)).toBeUndefined();
  });

  it('after the storage was disabled, the next joined transaction still joins, and a failure rolls all of it back', async () => {
    const db = database.db;
    expect(joinedTransactionsNow()).toBe(0);
    await expect(
      transactionJoinedByCalls(db, async () => {
        await db.run('INSERT INTO joined_probe (name) VALUES (?)', ['rolled-back']);
        await new Promise((resolve) => setTimeout(resolve, 1));
        await db.run('INSERT INTO joined_probe (name) VALUES (?)', ['rolled-back']);
      }),
    ).rejects.toThrow();
    expect(await db.get('SELECT name FROM joined_probe WHERE name = ?', ['rolled-back'])).toBeUndefined();
    expect(joinedTransactionsNow()).toBe(0);
  });
});
