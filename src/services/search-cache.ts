// What a check search found, remembered per database handle while the owner's checks stand still
// (check_changes, migration 011), so the next pages of a broad search skip the count (issue 13).

/** A search's answer as of one value of the owner's change counter. */
export interface Found {
  changes: number;
  total: number;
  /** Every match's id, newest first, when the matches are few; null when pages are walked. */
  ids: readonly string[] | null;
}

/** A bounded map, least recently used out first: a few hundred searches, ids only for small ones. */
export class SearchCache {
  private readonly entries = new Map<string, Found>();

  constructor(private readonly maxEntries: number) {}

  /** The entry for `key` if it was found at the counter value `changes`. */
  get(key: string, changes: number): Found | undefined {
    const found = this.entries.get(key);
    if (found === undefined) return undefined;
    this.entries.delete(key);
    if (found.changes !== changes) return undefined;
    this.entries.set(key, found);
    return found;
  }

  set(key: string, found: Found): void {
    this.entries.delete(key);
    this.entries.set(key, found);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }
}
