/**
 * Turns one file on disk into the rows that describe it: read, sniff, digest,
 * parse, count tokens, derive FTS terms. Pure with respect to the store, so it
 * can run on any thread.
 */
import { countTokens } from '../budget/index.js';
import { parseFile } from '../parse/index.js';
import { chunkTerms, pathTerms } from '../terms/index.js';
import { packTexts, type FileVersion } from '../store/index.js';
import { readSource } from '../walk/index.js';

export type Prepared =
  /** A new or changed file, as rows ready to store. */
  | { kind: 'version'; version: FileVersion }
  /** Same bytes as the stored version (only touched): nothing to rewrite. */
  | { kind: 'same'; size: number; indexedAtMs: number }
  | { kind: 'skip'; reason: 'binary' | 'unreadable' | 'vanished' | 'too_large' | 'too_slow'; detail: string; checkedAtMs: number };

export interface PrepareInput {
  path: string;
  abs: string;
  mtimeMs: number;
  maxFileBytes: number;
  /** Digest of the stored version, if any. */
  storedDigest?: string;
  /** Extract references for the code graph (default true). */
  references?: boolean;
  /** Wall-clock budget for this file (default PREPARE_BUDGET_MS). */
  budgetMs?: number;
}

/**
 * One file may take this long to count once parsed; past it the file is
 * skipped as `too_slow` (recorded, so an unchanged file is not retried on
 * every pass) and the pass goes on. Every step is linear, so only a
 * pathological file reaches it; the budget is what keeps one such file from
 * holding a pass at "parsing 0/N" for good.
 */
export const PREPARE_BUDGET_MS = 10_000;


export async function prepareFile(input: PrepareInput): Promise<Prepared> {
  // Taken before reading: a write that lands during the read leaves mtime >= indexedAt,
  // so the stat fast-path re-reads it next time.
  const indexedAtMs = Date.now();
  const source = readSource(input.abs, input.maxFileBytes);
  if (!source.ok) return { kind: 'skip', reason: source.reason, detail: source.detail, checkedAtMs: indexedAtMs };
  if (input.storedDigest === source.digest) {
    return { kind: 'same', size: source.bytes, indexedAtMs };
  }
  const tooSlow = (): Prepared => ({
    kind: 'skip',
    reason: 'too_slow',
    detail: `took over ${input.budgetMs ?? PREPARE_BUDGET_MS} ms to count`,
    checkedAtMs: indexedAtMs,
  });
  // The parse keeps its own budget (a slow one falls back to line windows); the clock starts after it,
  // so a grammar loaded for the first time on a busy machine never costs a file its place in the index.
  const parsed = await parseFile(input.path, source.text, { references: input.references });
  const deadline = Date.now() + (input.budgetMs ?? PREPARE_BUDGET_MS);
  const filePathTerms = pathTerms(input.path);
  const chunks: FileVersion['chunks'] = [];
  for (const [ord, c] of parsed.chunks.entries()) {
    if (Date.now() > deadline) return tooSlow(); // checked per chunk: the rest is not counted
    chunks.push({
      chunk: { ord, startLine: c.startLine, endLine: c.endLine, breadcrumb: c.breadcrumb, symbol: c.symbol, tokens: countTokens(c.text) },
      terms: chunkTerms(input.path, c.breadcrumb, c.text, filePathTerms),
    });
  }
  const lineCount = source.text.length === 0 ? 0 : source.text.split('\n').length;
  return {
    kind: 'version',
    version: {
      file: {
        path: input.path,
        language: parsed.language,
        kind: parsed.kind,
        size: source.bytes,
        mtimeMs: input.mtimeMs,
        digest: source.digest,
        indexedAtMs,
        lineCount,
        tokens: chunks.reduce((sum, c) => sum + c.chunk.tokens, 0),
        invalidUtf8: source.invalidUtf8,
      },
      chunks,
      // Packed here, on the preparing thread: brotli was the writing thread's largest cost.
      texts: packTexts(parsed.chunks.map((c) => c.text)),
      symbols: parsed.symbols.map((s) => ({
        name: s.name,
        qualified: s.qualified,
        kind: s.kind,
        signature: s.signature,
        startLine: s.startLine,
        endLine: s.endLine,
      })),
      edges: parsed.references,
    },
  };
}
