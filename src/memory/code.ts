/**
 * What memory links point at in the code index: a file's digest is the one
 * the index read; a symbol's is a digest of its signature and of the indexed
 * text of the chunks that cover it, so an edit elsewhere in the file (even one
 * that moves it) leaves the link fresh while an edit to the symbol makes it stale.
 */
import type { IndexedFile } from '../cite/index.js';
import type { Store } from '../store/index.js';
import { digest } from '../walk/index.js';
import type { Target } from './keys.js';

export interface CodeNode {
  digest: string;
  /** What recall shows of it. */
  fields: Record<string, string | number | null | undefined>;
}

/** The code index as memory sees it: a node per file or symbol key, and what the citation probe needs. */
export interface CodeIndex {
  node(target: Exclude<Target, { family: 'memory' }>): CodeNode | undefined;
  indexedFile(path: string): IndexedFile | undefined;
  /** Keys after `after` in key order (a files scan may be narrowed to a directory). */
  scan(scope: 'files' | 'symbols', after: string, limit: number, prefix?: string): ({ key: string } & Record<string, unknown>)[];
  /** Changes whenever an index pass completes, so a scan's continuation token can tell. */
  version(): string;
}

export function codeIndexOf(store: () => Store): CodeIndex {
  return {
    indexedFile: (path) => store().files.get(path),
    scan: (scope, after, limit, prefix) => store().scanKeys(scope, after, limit, prefix),
    version: () => store().getMeta('last_indexed_at') ?? '',
    node(target) {
      const file = store().files.get(target.path);
      if (!file) return undefined;
      if (target.family === 'file') {
        return { digest: file.digest, fields: { path: file.path, digest: file.digest, language: file.language, size_bytes: file.size, line_count: file.lineCount } };
      }
      const symbol = store().symbols.ofFileId(file.id).find((s) => s.qualified === target.name || s.name === target.name);
      if (!symbol) return undefined;
      const body = store()
        .chunks.ofFileId(file.id)
        .filter((c) => c.startLine <= symbol.endLine && c.endLine >= symbol.startLine)
        .map((c) => c.text);
      return {
        digest: digest(Buffer.from([symbol.kind, symbol.signature, ...body].join('\u0000'))),
        fields: { path: file.path, name: symbol.qualified, kind: symbol.kind, signature: symbol.signature, start_line: symbol.startLine, end_line: symbol.endLine },
      };
    },
  };
}
