/**
 * Front door of the parse module: language detection, file classification, and
 * parseFile() = symbols + chunks for one file.
 *
 * Chunk limits (see lines.ts / chunker.ts): code chunks hold at most MAX_CHUNK_NWS (1,200)
 * non-whitespace characters and MAX_CHUNK_LINES (80) lines, plus at most a tiny header/trailer
 * (≤ 3 lines, ≤ 100 chars). Files without a grammar use windows of WINDOW_LINES (60) lines /
 * WINDOW_NWS (2,400) characters that prefer blank-line boundaries and otherwise overlap by 5 lines.
 */
import { chunkTree } from './chunker.js';
import { getParser, parseWithBudget } from './grammar.js';
import { TREE_SITTER_LANGUAGES, fileKindOf, languageOf } from './kind.js';
import { SPECS } from './languages.js';
import { buildLineTable, type LineTable } from './lines.js';
import { markdownChunks, windowChunks } from './plain.js';
import { extractRefs } from './refs.js';
import { extractSymbols, publicSymbols } from './symbols.js';
import type { ParsedChunk, ParsedFile, ParsedRef, ParsedSymbol } from './types.js';

export type { FileKind, ParsedChunk, ParsedFile, ParsedRef, ParsedSymbol, RefKind, SymbolKind } from './types.js';
export { TREE_SITTER_LANGUAGES, extOf, fileKindOf, languageOf } from './kind.js';

/** Files whose average line is longer than this (minified bundles) are not given to tree-sitter. */
const MINIFIED_AVG_LINE = 300;
const MINIFIED_MIN_SIZE = 2000;
/**
 * Wall-clock parse budget (base + per MB of text); on expiry the file falls back to line windows.
 * Generous on purpose: it only guards against pathological inputs, and a tight budget would make
 * results depend on machine load (normal parsing runs at several MB/s).
 */
const PARSE_BUDGET_BASE_MS = 10_000;
const PARSE_BUDGET_PER_MB_MS = 10_000;

/** A C++ header with a .h extension. */
const CPP_IN_H = /^\s*(class\s+\w+[^;]*\{|namespace\s+[\w:]*\s*\{|template\s*<|#include\s*<(iostream|string|vector|memory|map)>)/m;

function plainChunks(t: LineTable, path: string, language: string | null): ParsedChunk[] {
  return language === 'markdown' ? markdownChunks(t, path) : windowChunks(t, path);
}

async function treeChunks(
  language: string,
  t: LineTable,
  path: string,
  text: string,
  references: boolean,
): Promise<{ chunks: ParsedChunk[]; symbols: ParsedSymbol[]; references: ParsedRef[] } | null> {
  const spec = SPECS[language];
  if (!spec) return null;
  const parser = await getParser(language);
  if (!parser) return null;
  const budget = PARSE_BUDGET_BASE_MS + (text.length / 1_000_000) * PARSE_BUDGET_PER_MB_MS;
  const tree = parseWithBudget(parser, text, budget);
  if (!tree) return null;
  try {
    const root = tree.rootNode;
    const table = extractSymbols(root, spec, t);
    const chunks = chunkTree(root, t, spec, table, path);
    const refs = references && parser.language ? extractRefs(language, parser.language, root, table) : [];
    return { chunks, symbols: publicSymbols(table), references: refs };
  } finally {
    tree.delete();
  }
}

export interface ParseOptions {
  /** Extract references (calls, imports, type uses, inheritance); default true. */
  references?: boolean;
}

export async function parseFile(path: string, text: string, options: ParseOptions = {}): Promise<ParsedFile> {
  let language: string | null = null;
  let kind: ParsedFile['kind'] = 'code';
  try {
    language = languageOf(path);
    kind = fileKindOf(path, text);
    if (language === 'c' && /\.h$/i.test(path) && CPP_IN_H.test(text)) language = 'cpp';
    const t = buildLineTable(text);
    if (t.count === 0) return { language, kind, chunks: [], symbols: [], references: [] };
    const minified = text.length >= MINIFIED_MIN_SIZE && text.length / t.count > MINIFIED_AVG_LINE;
    if (language !== null && TREE_SITTER_LANGUAGES.has(language) && !minified) {
      try {
        const res = await treeChunks(language, t, path, text, options.references ?? true);
        if (res) return { language, kind, ...res };
      } catch {
        // fall through to line windows
      }
    }
    return { language, kind, chunks: plainChunks(t, path, language), symbols: [], references: [] };
  } catch {
    // Last resort: never throw.
    try {
      return { language, kind, chunks: windowChunks(buildLineTable(text), path), symbols: [], references: [] };
    } catch {
      return { language, kind, chunks: [], symbols: [], references: [] };
    }
  }
}
