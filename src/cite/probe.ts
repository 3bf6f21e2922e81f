/**
 * Citation status: does a cited file still hold what the index says? One
 * probe serves one request, so every part of it (ranking, slices, outlines,
 * graph hits) shares one stat() per distinct file. Only a file whose stat
 * moved is re-read to compare digests, and at most MAX_CONFIRMING_READS of
 * them per request; the rest are disclosed as stale, never passed silently.
 * It discloses, it never withholds: callers return their results either way,
 * unless the probe refuses outdated citations (see OutdatedCitations).
 */
import fs from 'node:fs';
import path from 'node:path';
import { digest, readInsideSync } from '../walk/index.js';

export type CitationStatus = 'verified' | 'stale' | 'unverifiable';

export interface Citation {
  citation_status: CitationStatus;
  /** A sentence for the agent, present unless verified; it starts with a stable code. */
  citation_note?: string;
}

/** What the index recorded about a file when it read it. */
export interface IndexedFile {
  size: number;
  indexedAtMs: number;
  digest: string;
}

export const MAX_CONFIRMING_READS = 32;

const NOTES = {
  changed: 'content_changed: the file changed after it was indexed; line numbers may have moved, so find the symbol by name',
  unconfirmed: `modified_after_index: the file was written after it was indexed and was not re-read (over ${MAX_CONFIRMING_READS} files to confirm in this request); line numbers may have moved, so find the symbol by name`,
  missing: 'missing: no file exists at this path any more, so the citation cannot be checked',
  unreadable: 'unreadable: the file exists but cannot be read, so the citation cannot be checked',
  notIndexed: 'not_indexed: the index holds no record of when this file was read, so the citation cannot be checked',
} as const;

export interface CitationProbeOptions {
  root: string;
  /** The index's record of a repo-relative path, if any. */
  lookup: (relPath: string) => IndexedFile | undefined;
  /**
   * Throw OutdatedCitations instead of citing a file that changed or vanished
   * since it was indexed, so the answer can be rebuilt from a fresh parse.
   */
  refuseOutdated?: boolean;
}

/**
 * An answer was about to cite files the index no longer describes (changed or
 * deleted since they were read). Thrown before the answer is complete, so
 * nothing it would have recorded (receipts, refusals) is recorded; the caller
 * re-indexes `paths` and answers again.
 */
export class OutdatedCitations extends Error {
  constructor(readonly paths: string[]) {
    super(`outdated citations: ${paths.join(', ')}`);
  }
}

/** Stale, or gone: what a fresh parse of the file would change. Unreadable or never-indexed files it would not. */
function outdated(c: Citation): boolean {
  return c.citation_status === 'stale' || c.citation_note === NOTES.missing;
}

export class CitationProbe {
  private readonly decided = new Map<string, Citation>();
  private confirmingReads_ = 0;
  private stats_ = 0;

  constructor(private readonly options: CitationProbeOptions) {}

  /** stat() calls made so far (one per distinct file). */
  get stats(): number {
    return this.stats_;
  }

  /** Files re-read to compare digests so far. */
  get confirmingReads(): number {
    return this.confirmingReads_;
  }

  /** The status of a repo-relative path, decided once per request. */
  check(relPath: string): Citation {
    const found = this.status(relPath);
    if (this.options.refuseOutdated && outdated(found)) throw new OutdatedCitations([relPath]);
    return found;
  }

  /** Returns each item with its citation fields added (the items are not changed). */
  cite<T extends { path: string }>(items: T[]): (T & Citation)[] {
    const cited = items.map((item) => ({ ...item, ...this.status(item.path) }));
    if (this.options.refuseOutdated) {
      const paths = [...new Set(cited.filter(outdated).map((c) => c.path))];
      if (paths.length) throw new OutdatedCitations(paths);
    }
    return cited;
  }

  private status(relPath: string): Citation {
    let found = this.decided.get(relPath);
    if (!found) {
      found = this.decide(relPath);
      this.decided.set(relPath, found);
    }
    return found;
  }

  private decide(relPath: string): Citation {
    const indexed = this.options.lookup(relPath);
    if (!indexed || !(indexed.indexedAtMs > 0)) return unverifiable(NOTES.notIndexed);
    const abs = path.join(this.options.root, relPath);
    let st: fs.Stats;
    this.stats_++;
    try {
      st = fs.statSync(abs);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return unverifiable(code === 'ENOENT' || code === 'ENOTDIR' ? NOTES.missing : NOTES.unreadable);
    }
    if (!st.isFile()) return unverifiable(NOTES.missing);
    if (st.size !== indexed.size) return stale(NOTES.changed);
    // Written strictly before the index read it: unchanged, as the indexer's own stat fast-path
    // trusts (a write in the same tick as the read falls through to a digest check, as in git).
    if (st.mtimeMs < indexed.indexedAtMs) return { citation_status: 'verified' };
    if (this.confirmingReads_ >= MAX_CONFIRMING_READS) return stale(NOTES.unconfirmed);
    this.confirmingReads_++;
    let bytes: Buffer;
    try {
      bytes = readInsideSync(this.options.root, relPath);
    } catch {
      return unverifiable(NOTES.unreadable);
    }
    return digest(bytes) === indexed.digest ? { citation_status: 'verified' } : stale(NOTES.changed);
  }
}

function stale(note: string): Citation {
  return { citation_status: 'stale', citation_note: note };
}

function unverifiable(note: string): Citation {
  return { citation_status: 'unverifiable', citation_note: note };
}
