// What a list query found, remembered per database handle while the owner's checks stand still
// (check_changes, migration 011): a search's total and, when few, its ids; a long list's page
// anchors. The next pages then skip the count and the long skip, which at a million
// checks cost the most.

/** Something found as of one value of the owner's change counter. */
export interface AsOf {
  changes: number;
}

/** A bounded map, least recently used out first. */
export class ChangeKeyedCache<T extends AsOf> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly maxEntries: number) {}

  /** The entry for `key`, whatever counter value it was found at (or undefined). */
  peek(key: string): T | undefined {
    return this.entries.get(key);
  }

  /** The entry for `key` if it was found at the counter value `changes`. */
  get(key: string, changes: number): T | undefined {
    const found = this.entries.get(key);
    if (found === undefined || found.changes !== changes) return undefined;
    this.entries.delete(key);
    this.entries.set(key, found);
    return found;
  }

  set(key: string, found: T): void {
    this.entries.delete(key);
    this.entries.set(key, found);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }
}
