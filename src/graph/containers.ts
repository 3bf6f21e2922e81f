/**
 * Where a definition sits: its container is the qualified name before the
 * last dot (`Store.open` is in `Store`), and what that container is decides
 * whether a name is a member, a function's local, or a class's.
 */
import type { StoredSymbol } from '../store/index.js';
import type { GraphView } from './view.js';

export function containerOf(qualified: string): string {
  const dot = qualified.lastIndexOf('.');
  return dot < 0 ? '' : qualified.slice(0, dot);
}

export function isMember(s: StoredSymbol): boolean {
  return s.qualified.includes('.');
}

/** Whether a definition is local to a function or method. */
export function inFunction(ctx: GraphView, s: StoredSymbol): boolean {
  const container = containerOf(s.qualified);
  if (!container) return false;
  const owner = ctx.fileSymbols(s.fileId).find((p) => p.qualified === container);
  return owner !== undefined && (owner.kind === 'function' || owner.kind === 'method');
}

/** Whether a member's container is a class-like definition (not a module or a function). */
export function inClass(ctx: GraphView, s: StoredSymbol): boolean {
  const container = containerOf(s.qualified);
  const owner = ctx.fileSymbols(s.fileId).find((p) => p.qualified === container);
  return !owner || (owner.kind !== 'module' && owner.kind !== 'function' && owner.kind !== 'method');
}
