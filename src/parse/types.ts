/** Public types of the parse module (re-exported by index.ts). */

export type FileKind = 'code' | 'test' | 'doc' | 'config' | 'generated';

export type SymbolKind =
  | 'function'
  | 'method'
  | 'class'
  | 'interface'
  | 'struct'
  | 'enum'
  | 'trait'
  | 'module'
  | 'type'
  | 'constant'
  | 'variable';

export interface ParsedSymbol {
  /** Simple name, e.g. "bar". */
  name: string;
  /** Enclosing containers joined by '.', e.g. "Foo.bar". */
  qualified: string;
  kind: SymbolKind;
  /** First line of the definition (the line holding its name), trimmed, at most 200 chars. */
  signature: string;
  /** 1-based inclusive. */
  startLine: number;
  /** 1-based inclusive. */
  endLine: number;
}

export interface ParsedChunk {
  /** 1-based inclusive. */
  startLine: number;
  /** 1-based inclusive. */
  endLine: number;
  /** "src/a.ts > class Foo > method bar"; just the path for line-window chunks. */
  breadcrumb: string;
  /** Qualified name of the main definition the chunk holds or sits in; null if none. */
  symbol: string | null;
  /** Exact source text of lines startLine..endLine joined with '\n' ('\r' stripped). */
  text: string;
}

export interface ParsedFile {
  /** Tree-sitter language id, a plain language id ('markdown', 'json', ...), or null for plain text. */
  language: string | null;
  kind: FileKind;
  /** Covers every non-blank line at least once, ordered by startLine. */
  chunks: ParsedChunk[];
  symbols: ParsedSymbol[];
}
