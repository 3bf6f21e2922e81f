import { identifierWords } from '../terms/index.js';
import type { Db } from './db.js';

export interface SymbolRecord {
  name: string;
  qualified: string;
  kind: string;
  signature: string;
  startLine: number;
  endLine: number;
}
export interface StoredSymbol extends SymbolRecord {
  id: number;
  fileId: number;
  path: string;
}

/**
 * The columns read into a StoredSymbol (by `fromRaw`, in this order). Read raw, as arrays, and
 * named once: resolution reads every definition of a tree, often more than once.
 */
const SELECT = 'SELECT s.id, s.file_id, f.path, s.name, s.qualified, s.kind, s.signature, s.start_line, s.end_line FROM symbols s JOIN files f ON f.id = s.file_id';

function fromRaw(r: unknown[]): StoredSymbol {
  return {
    id: r[0] as number,
    fileId: r[1] as number,
    path: r[2] as string,
    name: r[3] as string,
    qualified: r[4] as string,
    kind: r[5] as string,
    signature: r[6] as string,
    startLine: r[7] as number,
    endLine: r[8] as number,
  };
}

/** A name as a caller writes it, `Store.open`, `mod::fn`, `Class#method` or `obj->f`: its last part, and the rest joined by dots. */
export function splitQualified(written: string): { name: string; qualifier: string | null } {
  const parts = written.split(/::|\.|#|->/).filter(Boolean);
  const name = parts.pop() ?? written;
  return { name, qualifier: parts.length ? parts.join('.') : null };
}

export class SymbolTable {
  private readonly insert;
  private readonly byName;
  private readonly ofFile;
  private readonly names;
  private readonly keyed;
  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT INTO symbols(file_id, name, name_lc, name_key, qualified, kind, signature, start_line, end_line)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.byName = db.prepare(`${SELECT} WHERE s.name_lc = ? ORDER BY f.path, s.start_line`).raw();
    this.ofFile = db.prepare(`${SELECT} WHERE s.file_id = ? ORDER BY s.start_line, s.end_line DESC`).raw();
    this.names = db.prepare('SELECT DISTINCT name_lc FROM symbols').pluck();
    // One statement for any number of keys: a list of `?` would be prepared anew per length, on every question.
    this.keyed = db.prepare(`${SELECT} WHERE s.name_key IN (SELECT value FROM json_each(?))`).raw();
  }

  /** Inserts a definition and returns its id. */
  add(fileId: number, s: SymbolRecord): number {
    const row = this.insert.run(fileId, s.name, s.name.toLowerCase(), identifierWords(s.name).join(''), s.qualified, s.kind, s.signature, s.startLine, s.endLine);
    return Number(row.lastInsertRowid);
  }

  /** Definitions whose simple name equals `name`, ignoring case. */
  named(name: string): StoredSymbol[] {
    return (this.byName.all(name.toLowerCase()) as unknown[][]).map(fromRaw);
  }

  /**
   * The definitions a name written by a caller means: under `qualifier` when one was written (its
   * qualified name ends in `qualifier.name` at a dot, in any case: `Store.open` is not `MyStore.open`),
   * and among those, the ones spelled exactly so, where any is, else those of any case. `Transport` is
   * the interface, not the `const transport = …` of a dozen examples; `transport`, where nothing is
   * spelled so, still finds `Transport`.
   */
  spelled(name: string, qualifier: string | null = null): StoredSymbol[] {
    const under = qualifier && `${qualifier}.${name}`.toLowerCase();
    const found = this.named(name).filter((s) => {
      if (!under) return true;
      const q = s.qualified.toLowerCase();
      return q === under || q.endsWith(`.${under}`);
    });
    const exact = found.filter((s) => s.name === name);
    return exact.length > 0 ? exact : found;
  }

  /** Definitions whose whole-identifier term is one of `keys` (see search/terms.ts). */
  withKeys(keys: string[]): StoredSymbol[] {
    return keys.length ? (this.keyed.all(JSON.stringify(keys)) as unknown[][]).map(fromRaw) : [];
  }

  ofFileId(fileId: number): StoredSymbol[] {
    return (this.ofFile.all(fileId) as unknown[][]).map(fromRaw);
  }

  /** Every distinct lower-cased symbol name (for recognising identifiers in a query). */
  allNames(): string[] {
    return this.names.all() as string[];
  }
}
