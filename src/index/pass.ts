/**
 * What the stages of one index pass share: where it runs, the counters its
 * summary reports, and what the survey found to do. Each stage reads and
 * adds to these; none holds state of its own between passes.
 */
import type { Config } from '../config/index.js';
import type { ResolveSummary } from '../graph/index.js';
import type { FileStamp, FileVersion, SkippedFile, Store } from '../store/index.js';
import type { Listings, SkippedEntry, WalkedFile } from '../walk/index.js';
import type { EmbedSummary } from './embed-pass.js';
import { unchangedSince, type Survey } from './survey.js';

/** `resolving`: the graph's references and the git history; keyword search answers from its start. */
export type IndexPhase = 'walking' | 'parsing' | 'writing' | 'resolving' | 'embedding' | 'done';

export interface IndexProgress {
  phase: IndexPhase;
  done: number;
  total: number;
  /** The pass's counters so far (live: read it, do not keep it). */
  summary: Readonly<IndexSummary>;
}

export interface IndexOptions {
  onProgress?: (p: IndexProgress) => void;
  /** Awaited before each file is prepared: may wait (yield to queries) or throw (stop the pass). */
  checkpoint?: () => Promise<void>;
  /** Only these repo-relative paths (what a watcher saw change); default: the whole tree. See survey.ts. */
  paths?: readonly string[];
  /** Extract and resolve the code graph (default true; off only to measure what it costs). */
  graph?: boolean;
  /** What the tree's last walk in this process found, kept for the next (walk/listings.ts). */
  listings?: Listings;
}

export interface IndexSummary {
  scanned: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  /** Files seen but not indexed, by reason (gitignore, binary, too_large, …). */
  skipped: Record<string, number>;
  chunks: number;
  symbols: number;
  /** The code graph's resolution pass: edges pending, edges answered. */
  graph?: ResolveSummary;
  /** The embedding pass that followed (embed-pass.ts); null with no embedder. */
  embed?: EmbedSummary | null;
  elapsedMs: number;
}

/** A file to read: new, or changed since it was stored. */
export interface Task {
  file: WalkedFile;
  stored?: FileStamp;
}

export function emptySummary(): IndexSummary {
  return { scanned: 0, added: 0, updated: 0, removed: 0, unchanged: 0, skipped: {}, chunks: 0, symbols: 0, elapsedMs: 0 };
}

export class Pass {
  readonly summary = emptySummary();
  /** Files to read, from the survey. */
  readonly tasks: Task[] = [];
  /** Paths the survey saw: a stored file outside them is gone. */
  readonly seen = new Set<string>();

  constructor(
    readonly root: string,
    readonly store: Store,
    readonly config: Config,
    readonly options: IndexOptions,
    readonly surveyed: Survey,
  ) {
    const { walked, stored, skippedBefore } = surveyed;
    this.summary.scanned = walked.files.length;
    for (const s of walked.skipped) this.skip(s.reason);
    for (const file of walked.files) {
      this.seen.add(file.path);
      const prev = stored.get(file.path);
      const prevSkip = skippedBefore.get(file.path);
      if (prev && unchangedSince(file, prev.size, prev.indexedAtMs)) this.summary.unchanged++;
      else if (!prev && prevSkip && prevSkip.reason !== 'unreadable' && unchangedSince(file, prevSkip.size, prevSkip.checkedAtMs)) this.skip(prevSkip.reason);
      else this.tasks.push({ file, stored: prev });
    }
  }

  progress(p: Omit<IndexProgress, 'summary'>): void {
    this.options.onProgress?.({ ...p, summary: this.summary });
  }

  skip(reason: string): void {
    this.summary.skipped[reason] = (this.summary.skipped[reason] ?? 0) + 1;
  }

  counted(v: FileVersion): void {
    this.summary.chunks += v.chunks.length;
    this.summary.symbols += v.symbols.length;
  }

  /** The walk's skips that are new or changed since the ledger last recorded them. */
  walkSkipsToRecord(): SkippedEntry[] {
    const { walked, skippedBefore } = this.surveyed;
    return walked.skipped.filter((s) => {
      const before: SkippedFile | undefined = skippedBefore.get(s.path);
      return !before || before.reason !== s.reason || before.detail !== (s.rule ?? null);
    });
  }
}
