/**
 * `contents`: what the index holds, weighed: files, chunks, symbols and
 * tokens by language and by top-level directory, the heaviest files, and how
 * far the embedder has got. One query over the files (Store.files.weighAll)
 * and one count of vectors; the dashboard's contents view draws it.
 */
import { byCodeUnit } from '../order.js';
import type { FileWeight } from '../store/index.js';
import type { Repo } from './repo.js';

export interface Weight {
  files: number;
  chunks: number;
  symbols: number;
  tokens: number;
  bytes: number;
}

export interface ContentsEnvelope {
  status: 'ok';
  totals: Weight;
  /** Most tokens first. */
  by_language: ({ language: string } & Weight)[];
  /** Top-level directories ('.' for files at the root), most tokens first. */
  by_directory: ({ dir: string } & Weight)[];
  /** The files that cost most to read whole. */
  largest_files: { path: string; language: string; tokens: number; bytes: number; chunks: number }[];
  embedder: { name: string; vectors: number; pending_chunks: number };
}

const LARGEST = 15;

const empty = (): Weight => ({ files: 0, chunks: 0, symbols: 0, tokens: 0, bytes: 0 });

function add(into: Weight, f: FileWeight): void {
  into.files += 1;
  into.chunks += f.chunks;
  into.symbols += f.symbols;
  into.tokens += f.tokens;
  into.bytes += f.bytes;
}

function groupBy<K extends string>(files: FileWeight[], label: K, keyOf: (f: FileWeight) => string): ({ [P in K]: string } & Weight)[] {
  const groups = new Map<string, Weight>();
  for (const f of files) {
    const key = keyOf(f);
    let w = groups.get(key);
    if (!w) groups.set(key, (w = empty()));
    add(w, f);
  }
  return [...groups.entries()].sort((a, b) => b[1].tokens - a[1].tokens || byCodeUnit(a[0], b[0])).map(([key, w]) => ({ [label]: key, ...w }) as { [P in K]: string } & Weight);
}

const topDirectory = (p: string) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '.');

/** The embedder, and how far its vectors have got. */
export function embedderState(repo: Repo): ContentsEnvelope['embedder'] {
  const { vectors } = repo.store;
  return { name: repo.config.embedder, vectors: vectors.count(), pending_chunks: vectors.pendingCount() };
}

export function contents(repo: Repo): ContentsEnvelope {
  const store = repo.store;
  const files = store.files.weighAll();
  const totals = empty();
  for (const f of files) add(totals, f);
  return {
    status: 'ok',
    totals,
    by_language: groupBy(files, 'language', (f) => f.language ?? 'text'),
    by_directory: groupBy(files, 'dir', (f) => topDirectory(f.path)),
    largest_files: [...files]
      .sort((a, b) => b.tokens - a.tokens || byCodeUnit(a.path, b.path))
      .slice(0, LARGEST)
      .map((f) => ({ path: f.path, language: f.language ?? 'text', tokens: f.tokens, bytes: f.bytes, chunks: f.chunks })),
    embedder: embedderState(repo),
  };
}
