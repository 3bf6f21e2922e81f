/**
 * FTS5 MATCH expressions are built here only, from literal phrases: caller text never reaches FTS5 as syntax.
 * And what every contentless_delete FTS5 table needs watched: the row count BM25 normalises by.
 */
import type { Db } from './db.js';

/** Characters FTS5 cannot take inside a quoted phrase (a NUL ends the string early); they separate words anyway. */
// eslint-disable-next-line no-control-regex
const UNQUOTABLE = /\u0000/g;

/** Phrases ORed, each quoted as a string literal (quotes doubled): `a' OR "b` is one phrase, never an operator. */
export function anyPhrase(phrases: readonly string[]): string {
  return phrases.map((p) => `"${p.replace(UNQUOTABLE, ' ').replace(/"/g, '""')}"`).join(' OR ');
}

/** An SQLite varint (big-endian groups of 7 bits, the high bit says more follow), as FTS5 stores its row count. */
export function readVarint(buf: Buffer): number {
  let v = 0;
  for (let i = 0; i < 9 && i < buf.length; i++) {
    const b = buf[i]!;
    if (i === 8) return v * 256 + b;
    v = v * 128 + (b & 0x7f);
    if (!(b & 0x80)) return v;
  }
  return v;
}

/**
 * How far the row count a contentless_delete FTS5 table `fts` normalises BM25
 * by has drifted above `rows` (the rows it should hold): 0 when exact, 0.25
 * when it counts a quarter more. A deleted row leaves that count untouched
 * (SQLite 3.53), so every deletion inflates it, and idf with it. Below 0 the
 * table lacks rows (-1: empty, as a migration that made it anew leaves it).
 */
export function rowCountDrift(db: Db, fts: string, rows: number): number {
  if (rows === 0) return 0;
  const block = db.prepare(`SELECT block FROM ${fts}_data WHERE id = 1`).pluck().get() as Buffer | undefined;
  return (block ? readVarint(block) : 0) / rows - 1;
}
