/**
 * The walker's rules for one path at a time, for callers that learn of paths
 * from elsewhere (file-system events). `createPathFilter` judges a path
 * without touching it (it lists the directory holding a `dist`, `build` or
 * `target` on its way, to tell a project's output from a source package): no
 * ancestor directory may be a default exclude or gitignored (unless git
 * tracks the path: git never ignores a tracked file), and the path must pass
 * the gitignore and glob rules.
 * `walkPaths` is `walk` restricted to given files: the same rules, then
 * the same stat checks (symlink confinement, regular file, size cap).
 * .gitignore files are read once per directory; build a new filter when one
 * of them changes.
 */
import fs, { promises as fsp, type Stats } from 'node:fs';
import * as path from 'node:path';
import { IgnoreMatcher, readIgnoreFile } from './gitignore.js';
import { compileGlobs } from './globs.js';
import { isWithin } from './paths.js';
import { DEFAULT_MAX_FILE_BYTES } from './source.js';
import type { SkipReason } from './skips.js';
import { readTracked } from './tracked.js';
import { DEFAULT_EXCLUDES, excludedByName, GIT_POINTER, once, type WalkedFile, type WalkOptions, type WalkResult } from './walker.js';

export interface PathFilter {
  /** Why the walker would skip a repo-relative POSIX path (a directory: everything under it); null when it would not. */
  check(rel: string, isDir: boolean): Promise<SkipReason | null>;
  admits(rel: string, isDir: boolean): Promise<boolean>;
}

export function createPathFilter(opts: WalkOptions): PathFilter {
  const root = path.resolve(opts.root);
  const gitignore = opts.gitignore ?? true;
  const excludeDirs = new Set(opts.excludeDirs ?? DEFAULT_EXCLUDES);
  const include = compileGlobs(opts.include);
  const exclude = compileGlobs(opts.exclude);
  const matchers = new Map<string, IgnoreMatcher>();

  /** Every rule that applies below directory `dir` ('' for the root), as the walker stacks them. */
  const matcherFor = (dir: string): IgnoreMatcher => {
    let m = matchers.get(dir);
    if (!m) {
      const parent =
        dir === ''
          ? IgnoreMatcher.empty().extend(readIgnoreFile(path.join(root, '.git', 'info', 'exclude'), '', '.git/info/exclude'))
          : matcherFor(dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '');
      const source = dir === '' ? '.gitignore' : `${dir}/.gitignore`;
      m = parent.extend(readIgnoreFile(path.join(root, dir, '.gitignore'), dir, source));
      matchers.set(dir, m);
    }
    return m;
  };
  const ignored = (rel: string, isDir: boolean) => {
    const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    return gitignore && matcherFor(parent).check(rel, isDir) !== undefined;
  };

  const tracked = once(() => readTracked(root));
  /** The names in a directory, read once: whether a `build` there is its project's output (excludedByName). */
  const listings = new Map<string, string[]>();
  const namesIn = (dir: string) => {
    let names = listings.get(dir);
    if (!names) {
      try {
        names = fs.readdirSync(path.join(root, dir));
      } catch {
        names = [];
      }
      listings.set(dir, names);
    }
    return names;
  };
  const check = async (rel: string, isDir: boolean): Promise<SkipReason | null> => {
    // As the walker: what an ignore rule leaves out, git may still track (walker.ts TrackedOnly).
    const kept = () => (isDir ? tracked()?.holdsUnder(rel) : tracked()?.has(rel)) === true;
    const parts = rel.split('/');
    for (let i = 0; i < parts.length; i++) {
      const last = i === parts.length - 1;
      if (last && !isDir) {
        if (parts[i] === GIT_POINTER) return 'default_exclude';
        break;
      }
      const parent = parts.slice(0, i).join('/');
      if (excludedByName(excludeDirs, parts[i]!, parent, () => namesIn(parent))) return 'default_exclude';
      if (ignored(parts.slice(0, i + 1).join('/'), true) && !kept()) return 'gitignore';
    }
    if (isDir) return null;
    if (ignored(rel, false) && !kept()) return 'gitignore';
    if (exclude?.(rel) !== undefined) return 'glob_exclude';
    if (include && include(rel) === undefined) return 'glob_include';
    return null;
  };
  return { check, admits: async (rel, isDir) => (await check(rel, isDir)) === null };
}

export interface PathsResult extends WalkResult {
  /** Paths that do not exist (any more). */
  missing: string[];
  /** Paths that are directories: the caller walks them. */
  directories: string[];
}

/** `walk`, for the given repo-relative files only. */
export async function walkPaths(opts: WalkOptions, rels: readonly string[], filter = createPathFilter(opts)): Promise<PathsResult> {
  const root = path.resolve(opts.root);
  const realRoot = await fsp.realpath(root);
  const maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const out: PathsResult = { files: [], skipped: [], missing: [], directories: [] };
  await Promise.all(
    rels.map(async (rel) => {
      const abs = path.join(root, rel);
      let st: Stats;
      try {
        st = await fsp.stat(abs);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') out.missing.push(rel);
        else out.skipped.push({ path: rel, reason: 'unreadable', rule: code });
        return;
      }
      if (st.isDirectory()) return void out.directories.push(rel);
      const reason = await filter.check(rel, false);
      if (reason) return void out.skipped.push({ path: rel, reason });
      const real = await fsp.realpath(abs).catch(() => abs);
      if (!isWithin(realRoot, real)) out.skipped.push({ path: rel, reason: 'symlink_escape', rule: 'target outside the repository root' });
      else if ((await fsp.realpath(path.dirname(abs)).catch(() => '')) !== path.join(realRoot, path.dirname(rel))) {
        // Reached through a symlinked directory: the walk indexes such files where they really are.
        out.skipped.push({ path: rel, reason: 'symlink_dir', rule: 'under a symlinked directory' });
      } else if (!st.isFile()) out.skipped.push({ path: rel, reason: 'not_regular' });
      else if (st.size > maxFileBytes) out.skipped.push({ path: rel, reason: 'too_large', rule: `maxFileBytes: ${maxFileBytes}` });
      else out.files.push({ path: rel, abs, size: st.size, mtimeMs: st.mtimeMs } satisfies WalkedFile);
    }),
  );
  return out;
}

