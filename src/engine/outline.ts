/** `outline`: a file's definitions, nested, with their spans and signatures. */
import { fitLists, type FitFields } from '../budget/index.js';
import { SightlineError } from '../errors/index.js';
import { listingBudget } from './gated.js';
import type { Repo } from './repo.js';
import { repoPath } from './paths.js';

export interface OutlineEntry {
  name: string;
  qualified: string;
  kind: string;
  signature: string;
  start_line: number;
  end_line: number;
  /** Nesting depth: 0 for top-level definitions. */
  depth: number;
}

/** Definitions in file order; past the token budget the rest are counted in `omitted`. */
export interface OutlineEnvelope extends FitFields {
  status: 'ok';
  path: string;
  language: string | null;
  lines: number;
  symbols: OutlineEntry[];
}

export function outline(repo: Repo, userPath: string, options: { maxTokens?: number } = {}): OutlineEnvelope {
  const { budget, more } = listingBudget(repo, options.maxTokens);
  const path = repoPath(repo, userPath);
  const file = repo.store.files.get(path);
  if (!file) {
    throw new SightlineError('not_found', `${path} is not in the index (missing, ignored, binary or too large); list indexed files with list_files`);
  }
  const open: { end: number }[] = [];
  const symbols = repo.store.symbols.ofFileId(file.id).map((s) => {
    while (open.length && open[open.length - 1]!.end < s.startLine) open.pop();
    const depth = open.length;
    open.push({ end: s.endLine });
    return {
      name: s.name,
      qualified: s.qualified,
      kind: s.kind,
      signature: s.signature,
      start_line: s.startLine,
      end_line: s.endLine,
      depth,
    };
  });
  return fitLists({ status: 'ok' as const, path, language: file.language, lines: file.lineCount }, { symbols }, budget, more('read the lines after the last definition listed'));
}
