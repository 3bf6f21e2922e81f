/**
 * Repository walker: enumerates the files sightline should index, honouring
 * hierarchical .gitignore files, default directory excludes, include/exclude
 * globs, a size cap and symlink confinement. Never throws for per-entry
 * problems; they are reported in `skipped` instead, by the ledger's reasons
 * (skips.ts).
 */
import * as fs from 'node:fs';
import { promises as fsp, type Dirent, type Stats } from 'node:fs';
import * as path from 'node:path';
import { IgnoreMatcher, readIgnoreFile } from './gitignore.js';
import { compileGlobs, type GlobMatcher } from './globs.js';
import { settled, stampOf, UNSTAMPED, type Listing, type Listings, type ListingsWalk } from './listings.js';
import { isWithin } from './paths.js';
import type { SkipReason } from './skips.js';
import { DEFAULT_MAX_FILE_BYTES } from './source.js';
import { readTracked, type Tracked } from './tracked.js';
import { Turns } from './turns.js';
import { byCodeUnit } from '../order.js';

export const DEFAULT_EXCLUDES: readonly string[] = Object.freeze([
  '.git',
  'node_modules',
  'dist',
  'build',
  'target',
  '.venv',
  'vendor',
  '__pycache__',
]);

/**
 * Default excludes that name what a build writes, which a project writes beside its own files: a
 * directory of one of these names at the root, or beside a project file, is left out (tracked or
 * not: axios commits its `dist` bundles); anywhere else it is a source package (Java's
 * `org.apache.commons.io.build`, a Go package `build`) and walked.
 */
export const BUILD_OUTPUTS: ReadonlySet<string> = new Set(['dist', 'build', 'target']);
/** Files that make their directory a project's: what its build writes lands beside them. */
const PROJECT_FILES: ReadonlySet<string> = new Set([
  'package.json', 'deno.json', 'pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts', 'build.xml', 'build.sbt',
  'Cargo.toml', 'go.mod', 'setup.py', 'setup.cfg', 'pyproject.toml', 'CMakeLists.txt', 'Makefile', 'makefile', 'GNUmakefile', 'meson.build',
  'composer.json', 'Gemfile', 'mix.exs', 'project.clj', 'Package.swift', 'pubspec.yaml',
]);

/** Whether a directory named `name` under a directory holding `siblings` ('' for the root) is excluded by name. */
export function excludedByName(excludeDirs: ReadonlySet<string>, name: string, parentRel: string, siblings: () => Iterable<string>): boolean {
  if (!excludeDirs.has(name)) return false;
  if (!BUILD_OUTPUTS.has(name) || parentRel === '') return true;
  for (const sibling of siblings()) if (PROJECT_FILES.has(sibling)) return true;
  return false;
}

export interface WalkOptions {
  /** Absolute path of the repository root (already validated to be a directory). */
  root: string;
  /** Default true: honour .gitignore files (hierarchical) and .git/info/exclude. */
  gitignore?: boolean;
  /** Globs (picomatch); if non-empty a file must match one. Slash-less globs match the basename. */
  include?: string[];
  /** Globs; a file matching any is skipped. */
  exclude?: string[];
  /** Directory names skipped at any depth. Default DEFAULT_EXCLUDES. */
  excludeDirs?: readonly string[];
  /** Default 1 MiB; larger files are skipped with reason 'too_large'. */
  maxFileBytes?: number;
  /** What this tree's last walk in this process found (listings.ts); without it every directory is read. */
  listings?: Listings;
}

export interface WalkedFile {
  /** Repo-relative POSIX path (for a followed symlink: the link's path). */
  path: string;
  abs: string;
  size: number;
  mtimeMs: number;
}

export interface SkippedEntry {
  /** Repo-relative POSIX path; directories end with '/'. */
  path: string;
  reason: SkipReason;
  /** e.g. ".gitignore: *.log", "src/.gitignore: /gen/", the glob, the excluded directory name, or a short note. */
  rule?: string;
}

export interface WalkResult {
  /** Sorted by path. */
  files: WalkedFile[];
  /** Sorted by path. */
  skipped: SkippedEntry[];
}

interface Ctx {
  readonly realRoot: string;
  readonly gitignore: boolean;
  readonly excludeDirs: ReadonlySet<string>;
  readonly include: GlobMatcher | undefined;
  readonly includeLabel: string;
  readonly exclude: GlobMatcher | undefined;
  readonly maxFileBytes: number;
  readonly files: WalkedFile[];
  readonly skipped: SkippedEntry[];
  /** Lets directories through a few at a time per turn of the event loop (walk's loop). */
  readonly turns: Turns;
  /** What git tracks (tracked.ts), read the first time an ignore rule would leave something out. */
  readonly tracked: () => Tracked | null;
  /** Times `tracked` was asked: a listing whose judgements asked holds only while git tracks the same files. */
  trackedAsks: number;
  /** This walk's use of the kept listings (none in a walk without them, or a process's first). */
  readonly listings: ListingsWalk | undefined;
}

/**
 * The ignore rule of a directory walked only for the files git tracks in it (the rule matched it,
 * but git's rules never hide a tracked file); everything else in it is skipped under that rule.
 */
type TrackedOnly = string | null;

function skip(into: SkippedEntry[], rel: string, isDir: boolean, reason: SkipReason, rule?: string): void {
  const entry: SkippedEntry = { path: isDir ? rel + '/' : rel, reason };
  if (rule !== undefined) entry.rule = rule;
  into.push(entry);
}

function errCode(err: unknown): string {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : 'error';
}

// The callback APIs wrapped by hand are measurably cheaper per call than
// fs.promises; stats are issued in parallel, one promise per directory batch.
function statP(p: string): Promise<Stats> {
  return new Promise((resolve, reject) => fs.stat(p, (err, st) => (err ? reject(err) : resolve(st))));
}

/**
 * One directory's files, stat'ed synchronously: a stat of a cached inode takes
 * a few microseconds, where the thread pool's round trip costs ten times that
 * (1,121 files: 4 ms against 15–50), and a pass that finds nothing changed is
 * mostly stats. The event loop still gets a turn between directories.
 */
function statBatch(paths: readonly string[]): (Stats | NodeJS.ErrnoException)[] {
  return paths.map((p) => {
    try {
      return fs.statSync(p);
    } catch (err) {
      return err as NodeJS.ErrnoException;
    }
  });
}

/** A stat, or undefined where there is none to take (gone, or unreadable: the read that follows says which). */
function statQuiet(p: string): Stats | undefined {
  try {
    return fs.statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Join without path.join's normalisation cost; copes with a root of '/'. */
function child(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

const byPath = (a: { path: string }, b: { path: string }): number => byCodeUnit(a.path, b.path);

export async function walk(opts: WalkOptions): Promise<WalkResult> {
  const root = path.resolve(opts.root);
  const realRoot = await fsp.realpath(root);
  const include = compileGlobs(opts.include);
  const trackedOnce = once(() => readTracked(root));
  const gitignore = opts.gitignore ?? true;
  const excludeDirs = new Set(opts.excludeDirs ?? DEFAULT_EXCLUDES);
  const listings = opts.listings?.begin(JSON.stringify([realRoot, gitignore, opts.include ?? [], opts.exclude ?? [], [...excludeDirs]]));
  const ctx: Ctx = {
    realRoot,
    gitignore,
    excludeDirs,
    include,
    includeLabel: include ? `include: ${(opts.include ?? []).join(', ')}` : '',
    exclude: compileGlobs(opts.exclude),
    maxFileBytes: opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    files: [],
    skipped: [],
    turns: new Turns(),
    tracked: () => {
      ctx.trackedAsks++;
      return trackedOnce();
    },
    trackedAsks: 0,
    listings,
  };

  let matcher = IgnoreMatcher.empty();
  if (ctx.gitignore) {
    // Lowest precedence first: .git/info/exclude, then the .gitignore files (added per directory).
    matcher = matcher.extend(readIgnoreFile(path.join(root, '.git', 'info', 'exclude'), '', '.git/info/exclude'));
  }

  // Depth first from a stack, not a promise per directory: babel/babel's 13,000 held at once were
  // a tenth of a walk in collection. Directories are read synchronously, for the same reason as
  // stats, a few a turn (turns.ts); symlinks are followed meanwhile and awaited last.
  const pending: DirToWalk[] = [{ abs: root, rel: '', matcher, only: null }];
  const links: Promise<void>[] = [];
  for (let dir = pending.pop(); dir; dir = pending.pop()) {
    await ctx.turns.take();
    walkDir(ctx, dir, pending, links);
  }
  await Promise.all(links);
  ctx.listings?.end();

  ctx.files.sort(byPath);
  ctx.skipped.sort(byPath);
  return { files: ctx.files, skipped: ctx.skipped };
}

/** `make()`'s value, made on the first call. */
export function once<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) [value, made] = [make(), true];
    return value;
  };
}

/** A directory to walk, with the rules it is judged under. */
interface DirToWalk {
  abs: string;
  /** Repo-relative POSIX path ('' for the root). */
  rel: string;
  matcher: IgnoreMatcher;
  only: TrackedOnly;
}

/**
 * Walks one directory: its listing kept from the last walk while that holds, else its entries read
 * and judged (judge); then its files stat'ed, and its subdirectories left in `pending`.
 */
function walkDir(ctx: Ctx, dir: DirToWalk, pending: DirToWalk[], links: Promise<void>[]): void {
  const readAtMs = ctx.listings?.now() ?? 0;
  const st = ctx.listings && statQuiet(dir.abs);
  let listing = ctx.listings?.find(dir.abs, st, dir.matcher, dir.only, ctx.tracked, statQuiet);
  if (listing) {
    ctx.listings!.keep(dir.abs, listing);
  } else {
    let dirents: Dirent[];
    try {
      dirents = fs.readdirSync(dir.abs, { withFileTypes: true });
    } catch (err) {
      if (dir.rel === '') throw err; // the root itself: the caller validated it, so this is a real failure
      skip(ctx.skipped, dir.rel, true, 'unreadable', errCode(err));
      return;
    }
    const linked = links.length;
    listing = judge(ctx, dir, dirents, links);
    // A symlink's target can change with nothing in the directory moving: a directory holding one is read each walk.
    const keep = st && links.length === linked && settled(st, readAtMs) && (!listing.gitignore || settled(listing.gitignore.stamp, readAtMs));
    if (keep) ctx.listings!.keep(dir.abs, { ...listing, stamp: stampOf(st) });
  }
  for (const s of listing.skipped) ctx.skipped.push(s);
  if (listing.fileAbs.length > 0) statFiles(ctx, listing.fileAbs, listing.fileRel);
  for (const d of listing.dirs) pending.push({ abs: d.abs, rel: d.rel, matcher: listing.matcher, only: d.only });
}

/**
 * A directory's entries judged by name and type alone: the files to stat, the subdirectories to
 * walk, what is left out and why. Symlinks are followed at once, into `links`.
 */
function judge(ctx: Ctx, dir: DirToWalk, dirents: readonly Dirent[], links: Promise<void>[]): Listing {
  const { abs: dirAbs, rel: dirRel, only } = dir;
  const parentMatcher = dir.matcher;
  let matcher = parentMatcher;
  let gitignore: Listing['gitignore'] = null;
  if (ctx.gitignore && dirents.some((d) => d.name === '.gitignore' && d.isFile())) {
    const abs = path.join(dirAbs, '.gitignore');
    // Stat'ed before it is read, so an edit after the read moves the stamp a later walk compares.
    const st = statQuiet(abs);
    gitignore = { abs, stamp: st ? stampOf(st) : UNSTAMPED };
    matcher = matcher.extend(readIgnoreFile(abs, dirRel, dirRel === '' ? '.gitignore' : `${dirRel}/.gitignore`));
  }

  const asked = ctx.trackedAsks;
  const fileAbs: string[] = [];
  const fileRel: string[] = [];
  const dirs: { abs: string; rel: string; only: TrackedOnly }[] = [];
  const skipped: SkippedEntry[] = [];
  const siblings = () => dirents.map((d) => d.name);
  for (const d of dirents) {
    const name = d.name;
    const rel = dirRel === '' ? name : `${dirRel}/${name}`;
    const abs = child(dirAbs, name);
    if (d.isDirectory()) {
      const admitted = admitDir(ctx, skipped, matcher, dirRel, rel, name, only, siblings);
      if (admitted) dirs.push({ abs, rel, only: admitted.only });
    } else if (d.isFile()) {
      if (name === GIT_POINTER) skip(skipped, rel, false, 'default_exclude', name);
      else if (admitFile(ctx, skipped, matcher, rel, only)) {
        fileAbs.push(abs);
        fileRel.push(rel);
      }
    } else if (d.isSymbolicLink()) {
      links.push(followLink(ctx, abs, dirRel, rel, name, matcher, only, siblings));
    } else if (admitFile(ctx, skipped, matcher, rel, only)) {
      skip(skipped, rel, false, 'not_regular', direntKind(d));
    }
  }
  const tracked = ctx.trackedAsks === asked ? undefined : ctx.tracked();
  return { stamp: UNSTAMPED, parentMatcher, only, tracked, gitignore, matcher, fileAbs, fileRel, dirs, skipped };
}

function direntKind(d: Dirent | Stats): string {
  if (d.isFIFO()) return 'fifo';
  if (d.isSocket()) return 'socket';
  if (d.isBlockDevice()) return 'block device';
  if (d.isCharacterDevice()) return 'character device';
  return 'unknown type';
}

/** A `.git` file: a worktree's or submodule's pointer to its repository, never source. */
export const GIT_POINTER = '.git';

/**
 * Directory checks: default excludes (by name, excludedByName), then gitignore. A directory a rule
 * ignores that git tracks files in is walked for those files only (TrackedOnly); null: skipped.
 */
function admitDir(
  ctx: Ctx,
  skipped: SkippedEntry[],
  matcher: IgnoreMatcher,
  parentRel: string,
  rel: string,
  name: string,
  only: TrackedOnly,
  siblings: () => Iterable<string>,
): { only: TrackedOnly } | null {
  const holdsTracked = () => ctx.tracked()?.holdsUnder(rel) === true;
  if (only && !holdsTracked()) {
    skip(skipped, rel, true, 'gitignore', only);
    return null;
  }
  if (excludedByName(ctx.excludeDirs, name, parentRel, siblings)) {
    skip(skipped, rel, true, 'default_exclude', name);
    return null;
  }
  if (ctx.gitignore) {
    const rule = matcher.check(rel, true);
    if (rule !== undefined) {
      if (!holdsTracked()) {
        skip(skipped, rel, true, 'gitignore', rule);
        return null;
      }
      only ??= rule;
    }
  }
  return { only };
}

/** File checks that need no stat: gitignore (which a tracked file passes), exclude globs, include globs. */
function admitFile(ctx: Ctx, skipped: SkippedEntry[], matcher: IgnoreMatcher, rel: string, only: TrackedOnly): boolean {
  const tracked = () => ctx.tracked()?.has(rel) === true;
  if (only && !tracked()) {
    skip(skipped, rel, false, 'gitignore', only);
    return false;
  }
  if (ctx.gitignore) {
    const rule = matcher.check(rel, false);
    if (rule !== undefined && !tracked()) {
      skip(skipped, rel, false, 'gitignore', rule);
      return false;
    }
  }
  if (ctx.exclude) {
    const glob = ctx.exclude(rel);
    if (glob !== undefined) {
      skip(skipped, rel, false, 'glob_exclude', glob);
      return false;
    }
  }
  if (ctx.include && ctx.include(rel) === undefined) {
    skip(skipped, rel, false, 'glob_include', ctx.includeLabel);
    return false;
  }
  return true;
}

function addFile(ctx: Ctx, abs: string, rel: string, st: Stats): void {
  if (!st.isFile()) {
    skip(ctx.skipped, rel, false, 'not_regular', direntKind(st));
  } else if (st.size > ctx.maxFileBytes) {
    skip(ctx.skipped, rel, false, 'too_large', `maxFileBytes: ${ctx.maxFileBytes}`); // one label for all, so it groups
  } else {
    ctx.files.push({ path: rel, abs, size: st.size, mtimeMs: st.mtimeMs });
  }
}

function statFiles(ctx: Ctx, abs: readonly string[], rel: readonly string[]): void {
  const results = statBatch(abs);
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!;
    // A stat error means the file vanished or became unreadable since readdir.
    if (r instanceof Error) skip(ctx.skipped, rel[i]!, false, 'unreadable', errCode(r));
    else addFile(ctx, abs[i]!, rel[i]!, r);
  }
}

/**
 * A symlink to a file inside the root is reported under the link's path. A
 * symlink to a directory is never walked: inside the root its files are
 * indexed where they really are ('symlink_dir'; walking both would index them
 * twice, and a link to an ancestor would loop). Outside targets are
 * 'symlink_escape'; dangling links are 'unreadable'. Ignore rules and excludes
 * are checked against the link's path, treating it as a directory when it
 * points to one.
 */
async function followLink(
  ctx: Ctx,
  abs: string,
  parentRel: string,
  rel: string,
  name: string,
  matcher: IgnoreMatcher,
  only: TrackedOnly,
  siblings: () => Iterable<string>,
): Promise<void> {
  let real: string;
  let st: Stats;
  try {
    real = await fsp.realpath(abs);
    st = await statP(real);
  } catch (err) {
    const code = errCode(err);
    const note = code === 'ENOENT' ? 'dangling symlink' : code === 'ELOOP' ? 'symlink loop' : code;
    skip(ctx.skipped, rel, false, 'unreadable', note);
    return;
  }
  if (st.isDirectory()) {
    if (!admitDir(ctx, ctx.skipped, matcher, parentRel, rel, name, only, siblings)) return;
    if (!isWithin(ctx.realRoot, real)) {
      skip(ctx.skipped, rel, true, 'symlink_escape', 'target outside the repository root');
      return;
    }
    const target = path.relative(ctx.realRoot, real).split(path.sep).join('/');
    skip(ctx.skipped, rel, true, 'symlink_dir', `links to ${target === '' ? '.' : target}/`);
    return;
  }
  if (!admitFile(ctx, ctx.skipped, matcher, rel, only)) return;
  if (!isWithin(ctx.realRoot, real)) {
    skip(ctx.skipped, rel, false, 'symlink_escape', 'target outside the repository root');
    return;
  }
  addFile(ctx, abs, rel, st);
}
