import { FileTexts, sliceSpan, type PackedTexts } from './chunk-text.js';
import { nameFilter } from './name-filter.js';
import type { Memo } from './memo.js';
import type { Db } from './db.js';
import { readVarint, rowCountDrift } from './fts.js';
import { holds, TermPostings, type LexicalHit } from './term-postings.js';

export type { LexicalHit };

export interface ChunkRecord {
  ord: number;
  startLine: number;
  endLine: number;
  breadcrumb: string;
  symbol: string | null;
  text: string;
  tokens: number;
}
/** A chunk as written: its text lies in its file's packed texts (PackedTexts), at its own position. */
export type NewChunk = Omit<ChunkRecord, 'text'>;
export interface StoredChunk extends ChunkRecord {
  id: number;
  fileId: number;
}
/** Where a chunk lies: its file and first line (ChunkTable.placesOf). */
export type ChunkPlace = Pick<StoredChunk, 'id' | 'fileId' | 'startLine'>;
/** The three FTS fields of a chunk, already turned into code-aware terms. */
export interface ChunkTerms {
  path: string;
  symbols: string;
  body: string;
}
/** A chunk row as read: CHUNK_COLUMNS in order (raw rows: a search reads hundreds, and arrays cost a third less than objects). */
type ChunkRow = [id: number, fileId: number, ord: number, startLine: number, endLine: number, breadcrumb: string, symbol: string | null, textAt: number, textLength: number, tokens: number];

/** A chunk row `c` with its file row `f`: the breadcrumb is stored past the file's path (breadcrumbTail). */
export const CHUNK_FROM = 'chunks c JOIN files f ON f.id = c.file_id';
/** The whole breadcrumb, read from CHUNK_FROM. */
export const BREADCRUMB = 'f.path || c.breadcrumb';
const CHUNK_COLUMNS = `c.id, c.file_id, c.ord, c.start_line, c.end_line, ${BREADCRUMB} AS breadcrumb, c.symbol, c.text_at, c.text_length, c.tokens`;

/**
 * What is stored of a breadcrumb: the part past its file's path, which every breadcrumb starts with
 * (parse/), as the files row holds the path already (babel: 3.4 MiB of its 4.6 MiB of chunk rows).
 */
function breadcrumbTail(path: string, breadcrumb: string): string {
  return breadcrumb.slice(path.length);
}

/** A row whose text is cut from its file's unpacked chunk texts when first read. */
function fromRow([id, fileId, ord, startLine, endLine, breadcrumb, symbol, at, length, tokens]: ChunkRow, fileText: () => string): StoredChunk {
  let text: string | undefined;
  return {
    id,
    fileId,
    ord,
    startLine,
    endLine,
    breadcrumb,
    symbol,
    get text() {
      return (text ??= sliceSpan(fileText(), { at, length }));
    },
    tokens,
  };
}

/** Line `n` (from 0) of `text`, or null past its end. */
function nthLine(text: string, n: number): string | null {
  let start = 0;
  for (let i = 0; i < n; i++) {
    start = text.indexOf('\n', start) + 1;
    if (start === 0) return null;
  }
  const end = text.indexOf('\n', start);
  return end < 0 ? text.slice(start) : text.slice(start, end);
}

/** Files read per page by a whole-index read (everyChunk): a few MiB of text at most. */
const FILES_PER_PAGE = 256;

/** FTS column weights: a term in a path or symbol name says more than one in a body. */
export const FIELD_WEIGHTS = { path: 3, symbols: 5, body: 1 } as const;

/** Past this drift an index pass rewrites the terms (index/term-stats.ts); below it, idf moves by less than the ranking can feel. */
export const MAX_TERM_STATS_DRIFT = 0.1;

/** How far the chunks' FTS row count has drifted above the chunks there are (fts.ts): re-indexed chunks inflate it. */
export function termStatsDrift(db: Db): number {
  return rowCountDrift(db, 'chunks_fts', db.prepare('SELECT count(*) FROM chunks').pluck().get() as number);
}

/** Segments in the FTS index, from its structure record: a 4-byte cookie, the 0xFF000001 mark of newer versions, then varints level count and segment count. */
export function termSegments(db: Db): number {
  const block = db.prepare('SELECT block FROM chunks_fts_data WHERE id = 10').pluck().get() as Buffer | undefined;
  if (!block) return 0;
  let at = block.readUInt32BE(4) === 0xff000001 ? 8 : 4;
  while (block[at]! & 0x80) at++; // past the level count
  return readVarint(block.subarray(at + 1));
}

export class ChunkTable {
  private readonly insert;
  private readonly insertText;
  private readonly texts;
  private readonly insertFts;
  private readonly idsOfFile;
  private readonly deleteFts;
  private readonly ofFile;
  private readonly holdingLine;
  private readonly fileIdOfEach;
  private readonly byIdList;
  private readonly placeList;
  /** Each term's chunks and scores, kept per index version up to a budget of chunk ids (a few MiB at the default; see keepWithin). */
  private readonly postings;
  /** `memo` and `version` keep what reads of one index version found (file texts, chunk-text.ts; term postings, term-postings.ts). */
  constructor(
    private readonly db: Db,
    memo: Memo,
    private readonly version: () => string,
  ) {
    this.insert = db.prepare(
      `INSERT INTO chunks(file_id, ord, start_line, end_line, breadcrumb, symbol, text_at, text_length, tokens)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertText = db.prepare('INSERT INTO file_texts(file_id, packed, names) VALUES (?, ?, ?)');
    this.texts = new FileTexts(db, { memo, version });
    this.insertFts = db.prepare('INSERT INTO chunks_fts(rowid, path, symbols, body) VALUES (?, ?, ?, ?)');
    this.idsOfFile = db.prepare('SELECT id FROM chunks WHERE file_id = ?').pluck();
    this.deleteFts = db.prepare('DELETE FROM chunks_fts WHERE rowid = ?');
    this.ofFile = db.prepare(`SELECT ${CHUNK_COLUMNS} FROM ${CHUNK_FROM} WHERE c.file_id = ? ORDER BY c.ord`).raw();
    this.holdingLine = db.prepare('SELECT start_line, text_at, text_length FROM chunks WHERE file_id = ? AND start_line <= ? AND end_line >= ? ORDER BY ord LIMIT 1').raw();
    this.fileIdOfEach = db.prepare('SELECT id, file_id FROM chunks').raw();
    this.byIdList = db.prepare(`SELECT ${CHUNK_COLUMNS} FROM ${CHUNK_FROM} WHERE c.id IN (SELECT value FROM json_each(?))`).raw();
    this.placeList = db.prepare('SELECT id, file_id, start_line FROM chunks WHERE id IN (SELECT value FROM json_each(?))').raw();
    const { path, symbols, body } = FIELD_WEIGHTS;
    // The weights go in the FTS table's column order (store/schema.ts).
    this.postings = new TermPostings(db, `${body}, ${path}, ${symbols}`, memo, version, 200_000);
  }

  /** Inserts a file version's chunks, their texts (packed once for the file) and their FTS terms. */
  addAll(file: { id: number; path: string }, chunks: readonly { chunk: NewChunk; terms: ChunkTerms }[], { packed, spans, names }: PackedTexts): void {
    if (chunks.length === 0) return;
    this.insertText.run(file.id, packed, names);
    chunks.forEach(({ chunk, terms }, i) => {
      const { at, length } = spans[i]!;
      const crumb = breadcrumbTail(file.path, chunk.breadcrumb);
      const id = this.insert.run(file.id, chunk.ord, chunk.startLine, chunk.endLine, crumb, chunk.symbol, at, length, chunk.tokens).lastInsertRowid;
      this.insertFts.run(id, terms.path, terms.symbols, terms.body);
    });
  }

  /** How much is kept between reads (config/memory.ts): file texts in bytes and code units, and chunk ids of terms. */
  keepWithin(limits: { textUnits: number; termChunkIds: number }): void {
    this.texts.keepWithin(limits.textUnits);
    this.postings.budget = limits.termChunkIds;
  }

  /** Removes a file's FTS rows; its chunk rows go with the file row. */
  deleteTermsOfFile(fileId: number): void {
    for (const id of this.idsOfFile.all(fileId) as number[]) this.deleteFts.run(id);
  }

  ofFileId(fileId: number): StoredChunk[] {
    const rows = this.ofFile.all(fileId) as ChunkRow[];
    const text = this.texts.lookup()(fileId);
    return rows.map((r) => fromRow(r, text));
  }

  /**
   * The text of a file's line as indexed (in the first chunk that holds it), or null. It reads that
   * chunk's row, not every chunk row of the file, and keeps each file's text while the index
   * version stays the one it was read at: a row of a later version is never cut from an earlier
   * version's text (a reader may outlive a pass: locate's snippets are read when shown).
   */
  lineReader(): (fileId: number, lineNo: number) => string | null {
    let read: { version: string; textOf: (fileId: number) => () => string; texts: Map<number, () => string> } | null = null;
    return (fileId, lineNo) => {
      const version = this.version();
      if (read?.version !== version) read = { version, textOf: this.texts.lookup(), texts: new Map() };
      const row = this.holdingLine.get(fileId, lineNo, lineNo) as [startLine: number, at: number, length: number] | undefined;
      if (!row) return null;
      let text = read.texts.get(fileId);
      if (!text) read.texts.set(fileId, (text = read.textOf(fileId)));
      const [startLine, at, length] = row;
      return nthLine(sliceSpan(text(), { at, length }), lineNo - startLine);
    };
  }

  /** The files among `fileIds` whose chunk texts may hold `name` as a whole word, case and all (chunk-text.ts). */
  filesMayHoldName(fileIds: Iterable<number>, name: string): Set<number> {
    return this.texts.filesMayHoldName(fileIds, name);
  }

  /** Writes the names filter of each file that lacks one (rows from before schema 11), from its chunk texts. */
  fillNameFilters(): void {
    const lacking = this.db.prepare('SELECT file_id FROM file_texts WHERE names IS NULL').pluck().all() as number[];
    const spansOf = this.db.prepare('SELECT text_at, text_length FROM chunks WHERE file_id = ? ORDER BY ord').raw();
    const write = this.db.prepare('UPDATE file_texts SET names = ? WHERE file_id = ?');
    for (const fileId of lacking) {
      const text = this.texts.readOnce(fileId);
      const texts = (spansOf.all(fileId) as [number, number][]).map(([at, length]) => sliceSpan(text, { at, length }));
      write.run(nameFilter(texts), fileId);
    }
  }

  byIds(ids: number[]): Map<number, StoredChunk> {
    const out = new Map<number, StoredChunk>();
    if (ids.length === 0) return out;
    // One prepared statement for any number of ids (a list of `?` would be prepared anew per length).
    const textOf = this.texts.lookup();
    for (const r of this.byIdList.all(JSON.stringify(ids)) as ChunkRow[]) out.set(r[0], fromRow(r, textOf(r[1])));
    return out;
  }

  /**
   * Where each of these chunks lies, its file and first line, without the rest of its row: a
   * ranking places hundreds of candidates and shows a few (the nearest 300 of a hybrid question).
   */
  placesOf(ids: number[]): Map<number, ChunkPlace> {
    const out = new Map<number, ChunkPlace>();
    if (ids.length === 0) return out;
    for (const [id, fileId, startLine] of this.placeList.all(JSON.stringify(ids)) as [number, number, number][]) out.set(id, { id, fileId, startLine });
    return out;
  }

  /** The chunks whose FTS fields (path, symbols or body) hold `term`: its postings' ids, or its ids read alone, kept per index version (term-postings.ts). */
  holding(term: string): { has(chunkId: number): boolean } {
    const ids = this.postings.holders(term);
    return { has: (chunkId) => holds(ids, chunkId) };
  }

  /** The file of every chunk, by chunk id (read from the file index alone). */
  fileIds(): Map<number, number> {
    return new Map(this.fileIdOfEach.all() as [number, number][]);
  }

  /** Every chunk with its file path, file by file in path order (for full scans such as regex search). */
  scan(): IterableIterator<StoredChunk & { path: string }> {
    return this.everyChunk('path');
  }

  termStatsDrift(): number {
    return termStatsDrift(this.db);
  }

  termSegments(): number {
    return termSegments(this.db);
  }

  /** Merges the FTS index into one segment: a pass that wrote in many batches left many, and every query reads them all. */
  compactTerms(): void {
    this.db.prepare("INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize')").run();
  }

  /** Replaces the whole FTS index with these terms (fresh statistics). Call inside a transaction. */
  rewriteTerms(terms: Iterable<{ id: number } & ChunkTerms>): void {
    this.db.prepare("INSERT INTO chunks_fts(chunks_fts) VALUES ('delete-all')").run();
    for (const t of terms) this.insertFts.run(t.id, t.path, t.symbols, t.body);
  }

  /** What the FTS terms are derived from, for every chunk in id order (FTS5 builds its segments fastest so): id, file path, breadcrumb, text. */
  termSources(): IterableIterator<StoredChunk & { path: string }> {
    return this.everyChunk('id');
  }

  /**
   * Every chunk with its file's path, a page of files at a time in `order`,
   * each file's text unpacked once: a whole-index read (a regex scan, a term
   * rewrite) holds the files' paths and one page of chunks, never the index.
   * Pages are read whole, so the caller may write between items.
   */
  private *everyChunk(order: 'path' | 'id'): IterableIterator<StoredChunk & { path: string }> {
    // Listed once, sorted: paths have no index to page by (schema.ts, FILES).
    const files = this.db.prepare(`SELECT id, path FROM files ORDER BY ${order}`).raw().all() as [number, string][];
    const rows = this.db.prepare(`SELECT ${CHUNK_COLUMNS} FROM ${CHUNK_FROM} WHERE c.file_id IN (SELECT value FROM json_each(?)) ORDER BY c.file_id, c.ord`).raw();
    for (let at = 0; at < files.length; at += FILES_PER_PAGE) {
      const page = files.slice(at, at + FILES_PER_PAGE);
      const byFile = new Map<number, ChunkRow[]>();
      for (const r of rows.all(JSON.stringify(page.map(([id]) => id))) as ChunkRow[]) {
        const of = byFile.get(r[1]);
        if (of) of.push(r);
        else byFile.set(r[1], [r]);
      }
      for (const [fileId, path] of page) {
        const chunks = byFile.get(fileId);
        if (!chunks) continue;
        const text = this.texts.readOnce(fileId);
        for (const r of chunks) yield { ...fromRow(r, () => text), path };
      }
    }
  }

  /** BM25 over the FTS index for any of `phrases` (literal text, quoted here); a phrase repeated n times weighs n times. */
  lexical(phrases: readonly string[], limit: number): LexicalHit[] {
    if (phrases.length === 0 || limit <= 0) return [];
    return this.postings.best(phrases, limit);
  }
}
