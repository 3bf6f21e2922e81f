/**
 * Memory entries that hold the words of a search: how `search` answers
 * include what agents wrote down about the code (reason `memory`,
 * `topic:<topic>`). Ranked by how many of the words an entry holds, its
 * title counting double, newest first among equals.
 */
import type { Memory } from './handle.js';
import type { StoredRecord } from './types.js';

export interface MemoryHit {
  key: string;
  topic: string;
  kind: string;
  title: string | null;
  /** The body's opening, at most SNIPPET_CHARS. */
  snippet: string;
  score: number;
  reasons: string[];
}

/** Entries read per search before ranking: the store's match is a plain substring scan. */
const CANDIDATES = 50;
const SNIPPET_CHARS = 240;

export async function findMemory(memory: Memory, words: string[], limit: number, nowMs = Date.now()): Promise<MemoryHit[]> {
  const wanted = [...new Set(words.map((w) => w.toLowerCase()).filter((w) => w.length >= 3))];
  if (!wanted.length) return [];
  const records = await memory.store.match(wanted, CANDIDATES, nowMs);
  return records
    .map((r) => ({ r, score: scoreOf(r, wanted) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || b.r.updatedTick - a.r.updatedTick)
    .slice(0, limit)
    .map(({ r, score }) => hitOf(r, score));
}

function scoreOf(r: StoredRecord, words: string[]): number {
  const title = (r.fields.title?.value ?? '').toLowerCase();
  const tags = Object.entries(r.tags).flatMap(([tag, held]) => (held.value ? [tag] : []));
  const rest = [r.topic, r.fields.body?.value ?? '', ...tags].join(' ').toLowerCase();
  return words.reduce((s, w) => s + (title.includes(w) ? 2 : rest.includes(w) ? 1 : 0), 0) / words.length;
}

function hitOf(r: StoredRecord, score: number): MemoryHit {
  const body = r.fields.body?.value ?? '';
  return {
    key: r.key,
    topic: r.topic,
    kind: r.kind,
    title: r.fields.title?.value ?? null,
    snippet: body.length > SNIPPET_CHARS ? `${body.slice(0, SNIPPET_CHARS)}…` : body,
    score: Math.round(score * 1000) / 1000,
    reasons: ['memory', `topic:${r.topic}`],
  };
}
