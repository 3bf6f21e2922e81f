/**
 * The repository's history as the index knows it: commits reachable from HEAD
 * (never past it), each with its message's code-aware terms in FTS and the
 * paths it touched. Written by index/history.ts, read by search/history.ts.
 */
import type { Db } from './db.js';
import { anyPhrase, rowCountDrift } from './fts.js';

export interface CommitRecord {
  hash: string;
  /** Committer time, seconds since the epoch. */
  time: number;
  /** How many files it touched under the indexed root. */
  fileCount: number;
  /** Paths it touched, relative to the indexed root (none kept for sweeping commits). */
  files: string[];
}

export interface CommitHit {
  commitId: number;
  /** FTS5 bm25 sign-flipped: larger is better. */
  score: number;
}

export class HistoryTable {
  private readonly insert;
  private readonly insertFile;
  private readonly insertFts;
  private readonly remove;
  private readonly removeFts;
  private readonly allHashes;
  private readonly search;
  private readonly touching;
  private readonly filesOfCommits;
  constructor(private readonly db: Db) {
    this.insert = db.prepare('INSERT INTO commits(hash, time, file_count) VALUES (?, ?, ?)');
    this.insertFile = db.prepare('INSERT OR IGNORE INTO commit_files(commit_id, path) VALUES (?, ?)');
    this.insertFts = db.prepare('INSERT INTO commits_fts(rowid, message) VALUES (?, ?)');
    this.remove = db.prepare('DELETE FROM commits WHERE id = ?');
    this.removeFts = db.prepare('DELETE FROM commits_fts WHERE rowid = ?');
    this.allHashes = db.prepare('SELECT hash, id FROM commits').raw();
    this.search = db.prepare(
      'SELECT rowid AS commitId, -bm25(commits_fts) AS score FROM commits_fts WHERE commits_fts MATCH ? ORDER BY score DESC LIMIT ?',
    );
    this.touching = db.prepare('SELECT commit_id AS id, path FROM commit_files WHERE path IN (SELECT value FROM json_each(?))');
    this.filesOfCommits = db
      .prepare('SELECT c.id, c.file_count, f.path FROM commits c JOIN commit_files f ON f.commit_id = c.id WHERE c.id IN (SELECT value FROM json_each(?))')
      .raw();
  }

  /** Stores a commit; `terms` are its message's code-aware terms. Call inside a transaction. */
  add(commit: CommitRecord, terms: string): void {
    const id = Number(this.insert.run(Buffer.from(commit.hash, 'hex'), commit.time, commit.fileCount).lastInsertRowid);
    for (const p of commit.files) this.insertFile.run(id, p);
    this.insertFts.run(id, terms);
  }

  /** Forgets a commit (its id, from `stored`) and its files. Call inside a transaction. */
  delete(id: number): void {
    this.removeFts.run(id);
    this.remove.run(id);
  }

  /** Every stored commit's id, by its hash (lowercase hex). */
  stored(): Map<string, number> {
    return new Map((this.allHashes.all() as [Buffer, number][]).map(([hash, id]) => [hash.toString('hex'), id]));
  }

  /** How far BM25's row count over the messages has drifted above the commits stored (fts.ts): each forgotten commit adds to it. */
  statsDrift(): number {
    return rowCountDrift(this.db, 'commits_fts', this.db.prepare('SELECT count(*) FROM commits').pluck().get() as number);
  }

  /** Forgets every commit, and resets BM25's statistics with them. Call inside a transaction. */
  clear(): void {
    this.db.prepare('DELETE FROM commits').run();
    this.db.prepare("INSERT INTO commits_fts(commits_fts) VALUES ('delete-all')").run();
  }

  /** BM25 over commit messages for any of `phrases` (literal text, quoted here). */
  lexical(phrases: readonly string[], limit: number): CommitHit[] {
    if (phrases.length === 0) return [];
    return this.search.all(anyPhrase(phrases), limit) as CommitHit[];
  }

  /** The stored commits that touched each of `paths` (co-change, search/learned.ts); a path none touched is absent. */
  commitsTouching(paths: readonly string[]): Map<string, Set<number>> {
    const out = new Map<string, Set<number>>();
    for (const r of this.touching.all(JSON.stringify(paths)) as { id: number; path: string }[]) {
      let set = out.get(r.path);
      if (!set) out.set(r.path, (set = new Set()));
      set.add(r.id);
    }
    return out;
  }

  /** The paths each commit touched, and how many files it touched in all. */
  filesOf(commitIds: number[]): Map<number, { fileCount: number; paths: string[] }> {
    const out = new Map<number, { fileCount: number; paths: string[] }>();
    if (commitIds.length === 0) return out;
    for (const [id, fileCount, path] of this.filesOfCommits.all(JSON.stringify(commitIds)) as [number, number, string][]) {
      let entry = out.get(id);
      if (!entry) out.set(id, (entry = { fileCount, paths: [] }));
      entry.paths.push(path);
    }
    return out;
  }
}
