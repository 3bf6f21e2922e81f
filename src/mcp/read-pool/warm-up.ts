/**
 * A read worker's first questions of its own. A new thread's code is cold: its first handful of
 * searches and lookups ran 2–5 times slower than the same questions later (V8 had compiled
 * nothing of the ranking, the gate or the rendering yet). So a worker started ahead of a
 * session (ReadPool.prestart) asks a few questions of the index it serves, made from names the
 * index defines, and throws the answers away. It stops at the first real question, and after
 * WARM_UP_MS: a question asked at once waits for one of these, never for all.
 */
import { forgetAnswers } from '../../search/index.js';
import type { Engine } from '../../engine/index.js';
import { identifierWords } from '../../terms/index.js';
import { renderAnswer } from '../result.js';

/** How long a worker may spend warming up; its first questions take ~20–40 ms each. */
export const WARM_UP_MS = 250;
/** How many defined names the questions are made from (each gives a lookup, a keyword search and a search in words). */
const NAMES = 4;
/** Definitions worth a question: a type's or a function's, not a local's. */
const KINDS = new Set(['class', 'interface', 'struct', 'trait', 'type', 'function', 'method']);
/** Shorter names (`T`, `id`) are found everywhere and look like no real question. */
const MIN_NAME = 4;

/** The names to ask about: one definition from each of NAMES files spread over the code files, by path. */
export function warmUpNames(engine: Engine): string[] {
  const store = engine.repo.store;
  const files = store.files.list().filter((f) => f.kind === 'code');
  const names: string[] = [];
  for (let i = 0; i < NAMES && files.length > 0; i++) {
    const file = files[Math.floor(((i + 0.5) * files.length) / NAMES)]!;
    const symbol = store.symbols.ofFileId(file.id).find((s) => KINDS.has(s.kind) && s.name.length >= MIN_NAME);
    if (symbol && !names.includes(symbol.name)) names.push(symbol.name);
  }
  return names;
}

/**
 * Asks the warm-up's questions, one per turn of the event loop, until `interrupted()` says a real
 * question came or the time is up. The answers leave nothing behind: the answer cache forgets
 * them (its hit counts are the real questions'), and no session is named, so nothing is recorded.
 * Returns how many were asked.
 */
export async function warmUp(engine: Engine, interrupted: () => boolean, now: () => number = performance.now.bind(performance)): Promise<number> {
  const start = now();
  const store = engine.repo.store;
  const asks = warmUpNames(engine).flatMap((name) => [
    () => engine.locate({ query: name }),
    () => engine.search({ query: name, mode: 'keyword' }),
    () => engine.search({ query: identifierWords(name).join(' ') }),
  ]);
  let asked = 0;
  try {
    for (const ask of asks) {
      await new Promise((resolve) => setImmediate(resolve)); // a question that arrived meanwhile is seen first
      if (interrupted() || now() - start >= WARM_UP_MS) break;
      renderAnswer(await store.readPinned(store.indexVersion(), ask), null);
      asked++;
    }
  } finally {
    forgetAnswers(store);
  }
  return asked;
}
