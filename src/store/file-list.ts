/**
 * Every indexed file as a reader keeps it between questions: in path order, by id and by path.
 * After a pass it is moved by what the pass wrote (FileTable.listFrom): its maps are the previous
 * list's with the change laid over them, in time proportional to the change, and its array is the
 * previous one filtered and merged (a copy of references, under a millisecond). Read whole,
 * babel's 27,600 rows took 80–90 ms, and every edit made the next search pay it.
 */
import type { ChangePoint } from './change-log.js';
import type { StoredFile } from './files.js';

/** What a list's maps answer: lookups (iterate the list's `files`, which are in path order). */
export interface Lookup<K, V> {
  get(key: K): V | undefined;
  has(key: K): boolean;
  readonly size: number;
}

export class FileList {
  private constructor(
    /** The change log's point the list reflects; null when it cannot be moved (made inside a write, or with no log yet). */
    readonly at: ChangePoint | null,
    /** In SQLite's order of paths (their UTF-8 bytes): what `ORDER BY path` gives. */
    readonly files: readonly StoredFile[],
    private readonly ids: Layered<number, StoredFile>,
    private readonly paths: Layered<string, StoredFile>,
  ) {}

  get byId(): Lookup<number, StoredFile> {
    return this.ids;
  }

  get byPath(): Lookup<string, StoredFile> {
    return this.paths;
  }

  /** A list of `files`, read in path order. */
  static of(at: ChangePoint | null, files: readonly StoredFile[]): FileList {
    return new FileList(at, files, Layered.over(new Map(files.map((f) => [f.id, f]))), Layered.over(new Map(files.map((f) => [f.path, f]))));
  }

  /** This list with the rows `written` since (new, or rewritten in place) and the ids of rows deleted since. */
  moved(at: ChangePoint, written: readonly StoredFile[], gone: readonly number[]): FileList {
    if (written.length === 0 && gone.length === 0) return new FileList(at, this.files, this.ids, this.paths); // only vectors were written
    const leaving = new Set(gone);
    for (const f of written) leaving.add(f.id);
    const left = [...leaving].flatMap((id) => this.ids.get(id) ?? []);
    const kept = left.length === 0 ? this.files : this.files.filter((f) => !leaving.has(f.id));
    const entering = [...written].sort((a, b) => byPathBytes(a.path, b.path));
    return new FileList(
      at,
      mergeByPath(kept, entering),
      this.ids.with(gone, written.map((f) => [f.id, f])),
      this.paths.with(left.map((f) => f.path), entering.map((f) => [f.path, f])),
    );
  }
}

/** Two lists in path order as one. */
function mergeByPath(a: readonly StoredFile[], b: readonly StoredFile[]): readonly StoredFile[] {
  if (b.length === 0) return a;
  const out: StoredFile[] = [];
  let i = 0;
  for (const f of b) {
    while (i < a.length && byPathBytes(a[i]!.path, f.path) < 0) out.push(a[i++]!);
    out.push(f);
  }
  while (i < a.length) out.push(a[i++]!);
  return out;
}

/**
 * The order of two paths' UTF-8 bytes, as SQLite's BINARY collation sorts them: code point order.
 * JavaScript's `<` compares UTF-16 code units, which puts a character above U+FFFF (a surrogate
 * pair, 0xD800–0xDFFF) below one in U+E000–U+FFFF; those two ranges are swapped here.
 */
export function byPathBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x += x >= 0xe000 ? -0x800 : 0x2000;
      y += y >= 0xe000 ? -0x800 : 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** A change this much of the map's size, or more, is folded into a plain map. */
const FOLD_SHARE = 1 / 8;
const FOLD_MIN = 64;

/**
 * A map as another with a few keys put over it and dropped from it, made in time proportional to
 * those: a lookup reads the change first. Folded into a plain map when the change outgrows a share
 * of it, so a long run of small edits costs, in all, about what the edits do.
 */
class Layered<K, V> implements Lookup<K, V> {
  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly put: ReadonlyMap<K, V>,
    private readonly dropped: ReadonlySet<K>,
    readonly size: number,
  ) {}

  static over<K, V>(map: ReadonlyMap<K, V>): Layered<K, V> {
    return new Layered(map, new Map(), new Set(), map.size);
  }

  get(key: K): V | undefined {
    const put = this.put.get(key);
    if (put !== undefined) return put;
    return this.dropped.has(key) ? undefined : this.base.get(key);
  }

  has(key: K): boolean {
    return this.put.has(key) || (!this.dropped.has(key) && this.base.has(key));
  }

  /** This map without the keys `drop`, then with the entries `put`. */
  with(drop: Iterable<K>, put: Iterable<readonly [K, V]>): Layered<K, V> {
    const nextPut = new Map(this.put);
    const nextDropped = new Set(this.dropped);
    const holds = (key: K) => nextPut.has(key) || (!nextDropped.has(key) && this.base.has(key));
    let size = this.size;
    for (const key of drop) {
      if (!holds(key)) continue;
      size--;
      nextPut.delete(key);
      if (this.base.has(key)) nextDropped.add(key);
    }
    for (const [key, value] of put) {
      if (!holds(key)) size++;
      nextDropped.delete(key);
      nextPut.set(key, value);
    }
    if (nextPut.size + nextDropped.size < FOLD_MIN + FOLD_SHARE * size) return new Layered(this.base, nextPut, nextDropped, size);
    const folded = new Map<K, V>();
    for (const [key, value] of this.base) if (!nextDropped.has(key) && !nextPut.has(key)) folded.set(key, value);
    for (const [key, value] of nextPut) folded.set(key, value);
    return Layered.over(folded);
  }
}
