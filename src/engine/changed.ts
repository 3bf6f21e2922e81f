/**
 * `changed`: how the working tree has drifted from the index — files added, modified and
 * removed — and the indexed files that depend on the changed ones (the blast radius of the
 * edits before re-indexing). No git: the same walk the index uses (with the directory listings it
 * keeps, so a server's next call reads only directories that changed), the files' stamps it
 * keeps, the stat fast-path for files untouched since they were read, and a digest comparison for
 * the rest.
 */
import { fitLists, type FitFields } from '../budget/index.js';
import type { Citation } from '../cite/index.js';
import { unchangedSince, walkOptions } from '../index/index.js';
import { byCodeUnit } from '../order.js';
import { readSource, Turns, walk } from '../walk/index.js';
import { citationProbe, listingBudget } from './gated.js';
import { repoPath } from './paths.js';
import type { Repo } from './repo.js';

/** The whole answer fits its token budget; lists that did not fit entirely are counted in `omitted`. */
export interface ChangedEnvelope extends FitFields {
  status: 'ok';
  /** The subtree compared ('' for the whole repository). */
  scope: string;
  added: string[];
  modified: string[];
  removed: string[];
  /** Files compared and found identical (most by stat alone). */
  unchanged: number;
  /**
   * Unchanged indexed files that refer to a modified or removed file's definitions, cited (a file
   * written since this walk compared it is no longer verified).
   */
  impact: ({ path: string; depends_on: string[]; lines: number[] } & Citation)[];
}

export async function changed(repo: Repo, userPath?: string, options: { maxTokens?: number } = {}): Promise<ChangedEnvelope> {
  const { budget, more } = listingBudget(repo, options.maxTokens);
  const scope = userPath?.trim() ? repoPath(repo, userPath) : '';
  const inScope = (p: string) => scope === '' || p === scope || p.startsWith(`${scope}/`);
  const { config } = repo;
  const walked = await walk({ ...walkOptions(repo.root, config), listings: repo.listings });
  const stamps = repo.store.files.stamps();
  const stored = new Map([...stamps].filter(([p]) => inScope(p)));
  const skipped = new Map(repo.store.skipped().map((s) => [s.path, s]));
  const added: string[] = [];
  const modified: string[] = [];
  let unchanged = 0;
  const turns = new Turns();
  for (const file of walked.files) {
    if (!inScope(file.path)) continue;
    const prev = stored.get(file.path);
    stored.delete(file.path);
    if (prev && unchangedSince(file, prev.size, prev.indexedAtMs)) {
      unchanged++;
      continue;
    }
    const was = skipped.get(file.path);
    if (!prev && was && file.size === was.size && file.mtimeMs < was.checkedAtMs) continue; // still binary / too large
    await turns.take();
    const source = readSource(file.abs, config.maxFileBytes);
    if (!prev) {
      if (source.ok) added.push(file.path);
    } else if (!source.ok || source.digest !== prev.digest) modified.push(file.path);
    else unchanged++;
  }
  const removed = [...stored.keys()];

  const changedIds = [...modified, ...removed].map((p) => stamps.get(p)!.id);
  const changedPaths = new Set([...added, ...modified, ...removed]);
  const impact = new Map<string, { depends: Set<string>; lines: Set<number> }>();
  for (const link of repo.store.edges.linksIntoFiles(changedIds)) {
    if (changedPaths.has(link.sourcePath) || !link.targetPath) continue;
    const entry = impact.get(link.sourcePath) ?? { depends: new Set<string>(), lines: new Set<number>() };
    entry.depends.add(link.targetPath);
    entry.lines.add(link.line);
    impact.set(link.sourcePath, entry);
  }
  const lists = {
    added: added.sort(),
    modified: modified.sort(),
    removed: removed.sort(),
    impact: citationProbe(repo).cite(
      [...impact.entries()]
        .map(([path, e]) => ({ path, depends_on: [...e.depends].sort(), lines: [...e.lines].sort((a, b) => a - b) }))
        .sort((a, b) => b.lines.length - a.lines.length || byCodeUnit(a.path, b.path)),
    ),
  };
  return fitLists({ status: 'ok' as const, scope, unchanged }, lists, budget, more('pass a path to report on one directory'));
}
