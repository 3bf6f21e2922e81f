/**
 * What is derived from one index and worth keeping between questions — the
 * answer cache, the vector matrix, the file list — held by the repository's
 * Store, so every cache of a repository lives in one visible place, goes
 * with its connection, and is found by a named slot rather than by a
 * module-level map keyed by the database.
 */

/** A named place in the memo for one kind of value; each module that caches declares its own. */
export interface Slot<T> {
  readonly name: string;
  /** Never set: carries the slot's value type. */
  readonly type?: T;
}

export function slot<T>(name: string): Slot<T> {
  return { name };
}

export class Memo {
  private readonly values = new Map<Slot<unknown>, { version: string; value: unknown }>();

  /** The slot's value made for `version` (an index version, with whatever else it was made from); made anew when that moved. */
  derived<T>(slot: Slot<T>, version: string, make: () => T): T {
    const held = this.values.get(slot);
    if (held && held.version === version) return held.value as T;
    const value = make();
    this.values.set(slot, { version, value });
    return value;
  }

  /** The slot's value, if one was made. */
  peek<T>(slot: Slot<T>): T | undefined {
    return this.values.get(slot)?.value as T | undefined;
  }

  /** Drops the slot's value: the next `derived` makes it anew. */
  drop(slot: Slot<unknown>): void {
    this.values.delete(slot);
  }

  /** Drops everything: the index was emptied or replaced. */
  clear(): void {
    this.values.clear();
  }
}
