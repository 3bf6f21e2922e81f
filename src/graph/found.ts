/**
 * What one step of resolving a reference found, and how it becomes the
 * edge's resolution: definitions (with how sure the match is), the targets an
 * import already resolved to, `stop` (the name is the runtime's or a
 * library's: leave it unresolved) or nothing (try the next step).
 */
import type { Confidence, EdgeTarget, StoredSymbol } from '../store/index.js';
import type { GraphView, Resolution } from './view.js';

/** Candidates stored per ambiguous edge; the count of all of them is kept too. */
export const MAX_CANDIDATES = 25;

/** Members a class's instantiation runs: Java / C# / C++ / Kotlin use the class name. */
const CONSTRUCTOR_NAMES = ['constructor', '__init__', 'initialize', '__construct'];

export type Found = { symbols: StoredSymbol[]; confidence: Confidence } | { targets: EdgeTarget[] } | 'stop' | null;

export function answer(found: Exclude<Found, 'stop' | null>): Resolution {
  if ('targets' in found) {
    return { status: 'resolved', candidates: found.targets.length, targets: found.targets.slice(0, MAX_CANDIDATES) };
  }
  const unique = [...new Map(found.symbols.map((s) => [s.id, s])).values()];
  const distinct = new Set(unique.map((s) => `${s.path}\0${s.qualified}`)).size;
  return {
    // Overloads (one qualified name, several definitions) are one answer; different definitions are not.
    status: distinct === 1 || found.confidence !== 'name' ? 'resolved' : 'ambiguous',
    candidates: unique.length,
    targets: unique.slice(0, MAX_CANDIDATES).map((s) => ({ fileId: s.fileId, symbolId: s.id, confidence: found.confidence })),
  };
}

/** `Foo()` / `new Foo()` calls the class's constructor too: its callers are the class's instantiations. */
export function constructorTargets(ctx: GraphView, found: { symbols: StoredSymbol[]; confidence: Confidence }): EdgeTarget[] {
  const out: EdgeTarget[] = [];
  for (const cls of found.symbols) {
    if (cls.kind !== 'class' && cls.kind !== 'struct') continue;
    const names = new Set([cls.name, ...CONSTRUCTOR_NAMES].map((n) => `${cls.qualified}.${n}`));
    for (const s of ctx.fileSymbols(cls.fileId)) {
      if (names.has(s.qualified)) out.push({ fileId: s.fileId, symbolId: s.id, confidence: found.confidence });
    }
  }
  return out;
}
