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

/** call | import | type use | inheritance (extends, implements, embeds, mixes in) | a namespace/package declaration. */
export type RefKind = 'call' | 'import' | 'type' | 'inherit' | 'namespace';

export interface ParsedRef {
  kind: RefKind;
  /** The name referenced: callee, type, base; for an import the member taken ('*' for the whole module). */
  name: string;
  /** What precedes the name, separators made '.': `ns` in `ns.f()`, `self`, `a.b` in `a::b::c()`; '?' for an expression; null when bare. */
  qualifier: string | null;
  /**
   * Where the name comes from: for an import, the module as written ('./x.js', '..pkg', 'crate::a',
   * 'stdio.h'); for a call on a variable, the variable's declared type ('http.Request', 'Flask'); null otherwise.
   */
  module: string | null;
  /** Imports: the local name bound; null when the module's names spill into scope, '' when nothing is bound. */
  alias: string | null;
  /** 1-based. */
  line: number;
  /** Index in `symbols` of the innermost enclosing definition; -1 at top level. */
  from: number;
}

export interface ParsedFile {
  /** Tree-sitter language id, a plain language id ('markdown', 'json', ...), or null for plain text. */
  language: string | null;
  kind: FileKind;
  /** Covers every non-blank line at least once, ordered by startLine. */
  chunks: ParsedChunk[];
  symbols: ParsedSymbol[];
  /** Calls, imports, type uses and inheritance, in document order (empty without a grammar). */
  references: ParsedRef[];
}
