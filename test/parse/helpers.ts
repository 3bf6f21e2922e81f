import { expect } from 'vitest';
import type { ParsedFile, ParsedSymbol } from '../../src/parse/index.js';

/** `n` filler lines produced by `line(i)`, joined with '\n'. */
export function fill(n: number, line: (i: number) => string): string {
  return Array.from({ length: n }, (_, i) => line(i)).join('\n');
}

/** 1-based number of the only line containing `needle`. */
export function lineOf(text: string, needle: string): number {
  const lines = text.split('\n');
  const hits = lines.flatMap((l, i) => (l.includes(needle) ? [i + 1] : []));
  if (hits.length !== 1) throw new Error(`expected exactly one line with ${JSON.stringify(needle)}, found ${hits.length}`);
  return hits[0]!;
}

export function sym(file: ParsedFile, qualified: string): ParsedSymbol {
  const found = file.symbols.filter((s) => s.qualified === qualified);
  expect(found.map((s) => s.qualified), `symbol ${qualified} in ${file.symbols.map((s) => s.qualified).join(', ')}`).toEqual([qualified]);
  return found[0]!;
}

/** Structural invariants every parse result must satisfy. */
export function checkInvariants(text: string, file: ParsedFile): void {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const covered = new Set<number>();
  let prevStart = 0;
  for (const c of file.chunks) {
    expect(c.startLine).toBeGreaterThanOrEqual(1);
    expect(c.endLine).toBeGreaterThanOrEqual(c.startLine);
    expect(c.endLine).toBeLessThanOrEqual(lines.length);
    expect(c.startLine).toBeGreaterThanOrEqual(prevStart);
    prevStart = c.startLine;
    expect(c.text).toBe(lines.slice(c.startLine - 1, c.endLine).join('\n'));
    expect(c.text.includes('\r')).toBe(false);
    for (let i = c.startLine; i <= c.endLine; i++) covered.add(i);
  }
  const missing = lines.flatMap((l, i) => (l.trim() !== '' && !covered.has(i + 1) ? [i + 1] : []));
  expect(missing, 'non-blank lines not covered by any chunk').toEqual([]);
  for (const s of file.symbols) {
    expect(s.startLine).toBeGreaterThanOrEqual(1);
    expect(s.endLine).toBeGreaterThanOrEqual(s.startLine);
    expect(s.endLine).toBeLessThanOrEqual(lines.length);
    expect(s.signature.length).toBeLessThanOrEqual(200);
  }
}
