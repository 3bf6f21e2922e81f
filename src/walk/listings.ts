/**
 * What a walk decided about each directory, kept for the next walk of the same tree in the same
 * process: a directory whose stat has not moved since is neither read nor judged again, only its
 * files are stat'ed (git's untracked cache does the same for `git status`). Adding, removing or
 * renaming an entry moves its directory's mtime; editing a file moves only the file's, and every
 * walk stats every file. On babel/babel (12,946 directories) reading them took ~180 ms a walk and
 * judging their entries ~60; a stat of each takes ~70.
 *
 * A listing holds while the directory's stat, the rules it was judged under (its parent's matcher,
 * its own .gitignore's stat) and, where a rule matched, git's tracked files are what they were.
 * It is kept only when the directory (and its .gitignore) last changed RACY_MS or more before it
 * was read: a change within the same tick of the file system's clock as the read would leave the
 * mtime where it was, and the listing stale.
 */
import type { Stats } from 'node:fs';
import type { IgnoreMatcher } from './gitignore.js';
import type { Tracked } from './tracked.js';
import type { SkippedEntry } from './walker.js';

/** Longer than the coarsest clock a file system keeps mtimes by (FAT's two seconds). */
export const RACY_MS = 2_500;

/** The parts of a stat that move when a directory's entries or a file's bytes change. */
export interface Stamp {
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  size: number;
}

/** A stat not taken: the same as no stat, and never settled. */
export const UNSTAMPED: Stamp = Object.freeze({ mtimeMs: NaN, ctimeMs: NaN, ino: NaN, size: NaN });

export function stampOf(st: Stats): Stamp {
  return { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, size: st.size };
}

function sameStamp(a: Stamp, st: Stats | undefined): boolean {
  return st !== undefined && a.mtimeMs === st.mtimeMs && a.ctimeMs === st.ctimeMs && a.ino === st.ino && a.size === st.size;
}

/** Whether a stat taken before a read at `readAtMs` dates from long enough before it to be trusted next time. */
export function settled(st: Pick<Stamp, 'mtimeMs' | 'ctimeMs'>, readAtMs: number): boolean {
  return Math.max(st.mtimeMs, st.ctimeMs) <= readAtMs - RACY_MS;
}

/** The entries a directory read found, as the walk judged them. */
export interface Listing {
  readonly stamp: Stamp;
  /** The matcher and tracked-only rule it was judged under, from its parent. */
  readonly parentMatcher: IgnoreMatcher;
  readonly only: string | null;
  /** Git's tracked files, when a decision asked for them; undefined when none did. */
  readonly tracked: Tracked | null | undefined;
  /** Its .gitignore and that file's stamp, when it has one: the rules `matcher` adds came from it. */
  readonly gitignore: { abs: string; stamp: Stamp } | null;
  /** The matcher its entries were judged with: the parent's, with its .gitignore's rules added. */
  readonly matcher: IgnoreMatcher;
  /** Files to stat, absolute and repo-relative. */
  readonly fileAbs: readonly string[];
  readonly fileRel: readonly string[];
  /** Subdirectories to walk. */
  readonly dirs: readonly { abs: string; rel: string; only: string | null }[];
  /** Entries left out without a stat (ignore rules, globs, excluded names, not regular files). */
  readonly skipped: readonly SkippedEntry[];
}

/**
 * Listings by directory, from a process's second walk of the tree on: those of the last walk that
 * finished. What a finished walk did not visit (a directory removed, or under one now ignored) is
 * forgotten with it. At most `maxFiles` files are named across the listings kept (the
 * `maxMemoryMB` plan's share; a tree larger than that walks the rest as before). Walks may run at
 * once (an index pass and `changed` in one server): each gathers its own, and the last to finish
 * leaves what it visited, a whole tree's worth.
 */
export class Listings {
  private kept = new Map<string, Listing>();
  private options = '';
  private walks = 0;
  /** The directories of the last walk that finished: listings it reused, and directories it read. */
  lastWalk: Readonly<{ reused: number; read: number }> = { reused: 0, read: 0 };

  /** `now`: the clock a read is timed by, against the stamps' (tests run it ahead to keep fresh directories). */
  constructor(
    private readonly maxFiles: number,
    readonly now: () => number = Date.now,
  ) {}

  /**
   * A walk starts with `options` (what its judgements depend on besides the tree): it finds what a
   * walk under the same options left. Undefined for the first walk, which neither uses nor keeps
   * listings: a process that walks a tree once (the CLI's `index`) pays no stat of each directory
   * for a next walk that never comes.
   */
  begin(options: string): ListingsWalk | undefined {
    if (this.walks++ === 0) return undefined;
    return new ListingsWalk(options === this.options ? this.kept : new Map(), this.maxFiles, this.now, (visited, counted) => {
      this.kept = visited;
      this.options = options;
      this.lastWalk = counted;
    });
  }
}

/** One walk's use of the listings: those it finds, and those it visits for the next walk. */
export class ListingsWalk {
  private readonly visited = new Map<string, Listing>();
  private visitedFiles = 0;
  private readonly counting = { reused: 0, read: 0 };

  /** `finished`: what the walk visited, under the options it began with, becomes what the next one finds. */
  constructor(
    private readonly kept: ReadonlyMap<string, Listing>,
    private readonly maxFiles: number,
    readonly now: () => number,
    private readonly finished: (visited: Map<string, Listing>, counted: { reused: number; read: number }) => void,
  ) {}

  /**
   * The listing kept for `dirAbs` if it still holds for the directory's stat `st` (none: it must be
   * read) and the rules it is judged under; undefined when the directory is to be read.
   */
  find(
    dirAbs: string,
    st: Stats | undefined,
    parentMatcher: IgnoreMatcher,
    only: string | null,
    tracked: () => Tracked | null,
    stat: (abs: string) => Stats | undefined,
  ): Listing | undefined {
    const l = st && this.kept.get(dirAbs);
    const holds =
      l &&
      sameStamp(l.stamp, st) &&
      l.parentMatcher === parentMatcher &&
      l.only === only &&
      (!l.gitignore || sameStamp(l.gitignore.stamp, stat(l.gitignore.abs))) &&
      (l.tracked === undefined || tracked() === l.tracked);
    this.counting[holds ? 'reused' : 'read']++;
    return holds ? l : undefined;
  }

  /** This walk visited `dirAbs` and judged it as `listing` (found, or read anew and settled). */
  keep(dirAbs: string, listing: Listing): void {
    if (this.visitedFiles + listing.fileAbs.length > this.maxFiles) return;
    this.visitedFiles += listing.fileAbs.length;
    this.visited.set(dirAbs, listing);
  }

  /** The walk finished: what it visited is what the next one finds. */
  end(): void {
    this.finished(this.visited, this.counting);
  }
}
