/**
 * The shapes every answer takes (see DESIGN.md, Envelopes). Both faces render
 * these: MCP as one JSON text, the CLI as JSON or text.
 */
import type { SearchMode } from '../search/index.js';

/** One cited location. Lines are 1-based and inclusive. */
export interface ResultItem {
  path: string;
  start_line: number;
  end_line: number;
  symbol: string | null;
  kind: string;
  score: number;
  reasons: string[];
  /** The lines that matched, each prefixed with its line number. */
  snippet?: string;
}

export interface SearchEnvelope {
  status: 'ok';
  mode: SearchMode;
  /** Vectors: building (some chunks pending), serving (complete) or keyword_only (no embedder). */
  retrieval_phase?: 'building' | 'serving' | 'keyword_only';
  query: string;
  total: number;
  results: ResultItem[];
}

export interface ErrorEnvelope {
  status: 'error';
  error: string;
}

export function errorEnvelope(message: string): ErrorEnvelope {
  return { status: 'error', error: message };
}

export function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
