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

interface SymbolRow {
  id: number;
  file_id: number;
  path: string;
  name: string;
  qualified: string;
  kind: string;
  signature: string;
  start_line: number;
  end_line: number;
}

function fromRow(r: SymbolRow): StoredSymbol {
  return {
    id: r.id,
    fileId: r.file_id,
    path: r.path,
    name: r.name,
    qualified: r.qualified,
    kind: r.kind,
    signature: r.signature,
    startLine: r.start_line,
    endLine: r.end_line,
  };
}

const SELECT = 'SELECT s.*, f.path AS path FROM symbols s JOIN files f ON f.id = s.file_id';

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
    this.byName = db.prepare(`${SELECT} WHERE s.name_lc = ? ORDER BY f.path, s.start_line`);
    this.ofFile = db.prepare(`${SELECT} WHERE s.file_id = ? ORDER BY s.start_line, s.end_line DESC`);
    this.names = db.prepare('SELECT DISTINCT name_lc FROM symbols').pluck();
    // One statement for any number of keys: a list of `?` would be prepared anew per length, on every question.
    this.keyed = db.prepare(`${SELECT} WHERE s.name_key IN (SELECT value FROM json_each(?))`);
  }

  /** Inserts a definition and returns its id. */
  add(fileId: number, s: SymbolRecord): number {
    const row = this.insert.run(fileId, s.name, s.name.toLowerCase(), identifierWords(s.name).join(''), s.qualified, s.kind, s.signature, s.startLine, s.endLine);
    return Number(row.lastInsertRowid);
  }

  /** Definitions whose simple name equals `name`, ignoring case. */
  named(name: string): StoredSymbol[] {
    return (this.byName.all(name.toLowerCase()) as SymbolRow[]).map(fromRow);
  }

  /** Definitions whose whole-identifier term is one of `keys` (see search/terms.ts). */
  withKeys(keys: string[]): StoredSymbol[] {
    return keys.length ? (this.keyed.all(JSON.stringify(keys)) as SymbolRow[]).map(fromRow) : [];
  }

  ofFileId(fileId: number): StoredSymbol[] {
    return (this.ofFile.all(fileId) as SymbolRow[]).map(fromRow);
  }

  /** Every distinct lower-cased symbol name (for recognising identifiers in a query). */
  allNames(): string[] {
    return this.names.all() as string[];
  }
}
