/**
 * The chunks near retrieved ones, by the graph: what an engineer would glance at next. Each added
 * chunk says why it was added, naming the chunk it was added for by where it starts
 * (`<path>:<line>`, the location a search result or a context unit shows):
 *
 *   neighbor-of:<at>    the chunk just before or after, in the same file
 *   sibling-of:<at>     another member of the same class / module (same enclosing definition)
 *   imported-by:<at>    the definition, in another file, of something the chunk refers to
 *
 * Seeds are never repeated, and a chunk reached twice keeps every reason.
 */
import type { Store, StoredChunk } from '../store/index.js';

export interface NearbyOptions {
  /** Chunks taken on each side of a seed (default 1; 0 turns neighbours off). */
  neighbors?: number;
  /** Members of the seed's enclosing class or module, nearest first (default 2; 0 turns them off). */
  siblings?: number;
  /** Definitions the seed refers to in other files (default 0: off). */
  imports?: number;
  /** Cap on chunks added in all (default 20). */
  max?: number;
}

export interface NearbyChunk {
  chunk: StoredChunk;
  path: string;
  reasons: string[];
}

const DEFAULTS = { neighbors: 1, siblings: 2, imports: 0, max: 20 };

function containerOf(symbol: string | null): string | null {
  if (!symbol) return null;
  const dot = symbol.lastIndexOf('.');
  return dot < 0 ? null : symbol.slice(0, dot);
}

export function nearbyChunks(store: Store, seedIds: number[], options: NearbyOptions = {}): NearbyChunk[] {
  const opts = { ...DEFAULTS, ...options };
  const seeds = store.chunks.byIds(seedIds);
  const seedSet = new Set(seedIds);
  const fileChunks = new Map<number, StoredChunk[]>();
  const chunksOf = (fileId: number) => {
    let list = fileChunks.get(fileId);
    if (!list) {
      list = store.chunks.ofFileId(fileId);
      fileChunks.set(fileId, list);
    }
    return list;
  };
  const paths = store.files.byIds([...new Set([...seeds.values()].map((c) => c.fileId))]);
  const out = new Map<number, NearbyChunk>();
  const add = (chunk: StoredChunk, path: string, reason: string): boolean => {
    if (seedSet.has(chunk.id)) return false;
    const known = out.get(chunk.id);
    if (known) {
      if (!known.reasons.includes(reason)) known.reasons.push(reason);
      return false;
    }
    if (out.size >= opts.max) return false;
    out.set(chunk.id, { chunk, path, reasons: [reason] });
    return true;
  };

  for (const id of seedIds) {
    const seed = seeds.get(id);
    const path = seed ? paths.get(seed.fileId)?.path : undefined;
    if (!seed || !path) continue;
    const at = `${path}:${seed.startLine}`;
    const list = chunksOf(seed.fileId);
    const index = list.findIndex((c) => c.id === seed.id);
    for (let d = 1; d <= opts.neighbors; d++) {
      for (const c of [list[index - d], list[index + d]]) if (c) add(c, path, `neighbor-of:${at}`);
    }
    const container = containerOf(seed.symbol);
    if (container && opts.siblings > 0) {
      const siblings = list
        .filter((c) => c.symbol !== null && c.symbol !== seed.symbol && c.symbol.startsWith(`${container}.`))
        .sort((a, b) => Math.abs(a.ord - seed.ord) - Math.abs(b.ord - seed.ord));
      let taken = 0;
      for (const c of siblings) if (taken < opts.siblings && add(c, path, `sibling-of:${at}`)) taken++;
    }
    if (opts.imports > 0) {
      let taken = 0;
      for (const link of store.edges.linksFrom(seed.fileId, seed.startLine, seed.endLine)) {
        if (taken >= opts.imports) break;
        if (!link.target || link.targetFile === null || link.targetFile === seed.fileId || link.status !== 'resolved') continue;
        const def = chunksOf(link.targetFile).find((c) => c.startLine <= link.target!.startLine && link.target!.startLine <= c.endLine);
        if (def && add(def, link.targetPath!, `imported-by:${at}`)) taken++;
      }
    }
  }
  return [...out.values()];
}
