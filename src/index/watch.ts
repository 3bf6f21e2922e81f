/**
 * File-system events to index passes. Events for paths the walker would not
 * index (default excludes, gitignored, outside the include globs) are dropped;
 * any other starts a debounce timer, and when the tree has been quiet long
 * enough (see `debounce`; or events kept coming for `maxWaitMs`) one scan is requested, of
 * the files that changed (a scoped pass: no walk), or of the whole tree when a
 * directory appeared or ignore rules changed. The scan is the repository's
 * index job, which never runs twice at once and merges requests made during a
 * pass into exactly one more, so a branch switch that writes a thousand files
 * costs one to three passes.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Event } from '@parcel/watcher';
import { BUILD_OUTPUTS, createPathFilter, type PathFilter, type WalkOptions } from '../walk/index.js';

export interface WatchOptions {
  /** The walk's rules: what the watcher ignores is exactly what the walker skips. */
  walk: WalkOptions;
  /** The quiet time a burst of events waits for: the debounce's ceiling. */
  debounceMs: number;
  /** The quiet time an isolated change waits for (default: debounceMs, a fixed debounce). */
  settleMs?: number;
  /** A stream of events never holds a scan back longer than this (default 10 × debounce, at least 2 s). */
  maxWaitMs?: number;
  /** Absolute paths whose events never count (an index kept inside the repository). */
  ignorePaths?: string[];
  /** Requests a pass over these repo-relative files, or over the whole tree (null). */
  scan: (paths: string[] | null) => Promise<unknown>;
  onError: (err: unknown) => void;
}

export interface TreeWatcher {
  /** Scans requested so far. */
  readonly scans: number;
  close(): Promise<void>;
}

const RULE_FILES = new Set(['.gitignore', '.git/info/exclude']);

export interface Debounced {
  /** Something happened: (re)start the quiet period. */
  poke(): void;
  /** Something kept the tree busy just now (a pass ended): the next poke is not after a quiet spell. */
  busy(): void;
  cancel(): void;
}

export interface DebounceTimes {
  /** The wait after a poke that follows a quiet tree: an isolated save is searchable this soon. */
  settleMs: number;
  /** The wait after a poke that comes within this of the one before: a burst is indexed once it has been quiet this long. */
  quietMs: number;
  /** A series of pokes that never pauses still fires this long after its first. */
  maxWaitMs: number;
}

/**
 * Calls `fire` once pokes stop for the current wait, adapted to how they come:
 * a poke after a quiet spell waits `settleMs`, so a lone edit is indexed at
 * once; a poke close behind another waits the whole `quietMs`, so a burst (a
 * branch switch, an install) fires once more, after it ends. The early pass
 * costs little: a scan asked for while one runs waits for it and takes
 * everything seen meanwhile (watchTree), and events just after a pass wait
 * the whole debounce, so a burst is one to three passes. A series fires at
 * the latest `maxWaitMs` after its first poke.
 */
export function debounce(times: DebounceTimes, fire: () => void): Debounced {
  const settleMs = Math.min(times.settleMs, times.quietMs);
  let timer: NodeJS.Timeout | undefined;
  let firstAt: number | undefined;
  let lastPokeAt = -Infinity;
  return {
    poke() {
      const now = Date.now();
      const wait = now - lastPokeAt < times.quietMs ? times.quietMs : settleMs;
      lastPokeAt = now;
      firstAt ??= now;
      clearTimeout(timer);
      timer = setTimeout(() => {
        timer = firstAt = undefined;
        fire();
      }, Math.min(wait, firstAt + times.maxWaitMs - now));
    },
    busy() {
      lastPokeAt = Date.now();
    },
    cancel() {
      clearTimeout(timer);
      timer = firstAt = undefined;
    },
  };
}

export async function watchTree(options: WatchOptions): Promise<TreeWatcher> {
  const root = path.resolve(options.walk.root);
  const maxWaitMs = options.maxWaitMs ?? Math.max(2_000, 10 * options.debounceMs);
  const ignorePaths = options.ignorePaths ?? [];
  let filter: PathFilter = createPathFilter(options.walk);
  let scans = 0;
  /** What changed since the last scan was requested: files, or null for "walk the tree". */
  let changed: Set<string> | null = new Set();
  // A scan asked for while the last one runs waits for it, then takes everything seen meanwhile in
  // one scan: events are delivered late while a pass keeps the thread busy, and each would
  // otherwise queue a pass of its own behind it.
  let running = false;
  let held = false;
  let closed = false;
  const request = (): void => {
    if (closed) return; // a held scan never starts after close (the job is stopping)
    if (running) {
      held = true;
      return;
    }
    debounced.cancel(); // this scan takes what a pending timer was waiting for
    scans++;
    const paths = changed && [...changed];
    changed = new Set();
    running = true;
    options
      .scan(paths)
      .catch(options.onError)
      .finally(() => {
        running = false;
        debounced.busy(); // events a busy pass delivered late are the same burst: they wait the whole debounce
        if (held) {
          held = false;
          request();
        }
      });
  };
  const debounced = debounce({ settleMs: options.settleMs ?? options.debounceMs, quietMs: options.debounceMs, maxWaitMs }, request);

  /** A created or moved-in directory is reported alone, not its files: it matters if one of them would be indexed. */
  const holdsIndexable = async (abs: string, rel: string): Promise<boolean> => {
    for (const d of await fsp.readdir(abs, { withFileTypes: true }).catch(() => [])) {
      const childRel = `${rel}/${d.name}`;
      const found = d.isDirectory()
        ? (await filter.admits(childRel, true)) && (await holdsIndexable(path.join(abs, d.name), childRel))
        : await filter.admits(childRel, false);
      if (found) return true;
    }
    return false;
  };

  /** What an event means for the index: nothing, one path to look at again, or a tree to walk. */
  const classify = async (abs: string): Promise<{ rel: string; scope: 'path' | 'tree' } | null> => {
    if (ignorePaths.some((p) => abs === p || abs.startsWith(p + path.sep))) return null;
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (rel === '' || rel.startsWith('..')) return null;
    if (RULE_FILES.has(rel) || rel.endsWith('/.gitignore')) {
      // New rules change what is admitted, and what is indexed: reload, and walk again.
      filter = createPathFilter(options.walk);
      return rel === '.git/info/exclude' || (await filter.admits(rel, false)) ? { rel, scope: 'tree' } : null;
    }
    const isDir = await fsp.stat(abs).then((s) => s.isDirectory(), () => null);
    // Gone: it was a file or a directory (deleting a tree reports only directories);
    // a scoped pass removes whatever was stored at or under it.
    if (isDir === null) return (await filter.admits(rel, false)) || (await filter.admits(rel, true)) ? { rel, scope: 'path' } : null;
    if (!isDir) return (await filter.admits(rel, false)) ? { rel, scope: 'path' } : null;
    return (await filter.admits(rel, true)) && (await holdsIndexable(abs, rel)) ? { rel, scope: 'tree' } : null;
  };

  const onEvents = async (err: Error | null, events: Event[]) => {
    if (err) return options.onError(err);
    let relevant = false;
    for (const e of events) {
      const c = await classify(e.path);
      if (!c) continue;
      relevant = true;
      if (c.scope === 'tree') changed = null;
      else changed?.add(c.rel);
    }
    if (relevant) debounced.poke();
  };

  const excludeDirs = options.walk.excludeDirs ?? [];
  // Excluded directories are not even watched (inotify watches are a finite resource),
  // except .git/info, whose exclude file is a rule file. A build output's name is one only at the
  // root here: deeper, it may be a source package (walker.ts excludedByName), and the filter judges its events.
  const ignored = (d: string) => (BUILD_OUTPUTS.has(d) ? [d, `${d}/**`] : [`**/${d}`, `**/${d}/**`]);
  const { default: watcher } = await import('@parcel/watcher'); // native, and only a watching process needs it
  const subscription = await watcher.subscribe(root, (err, events) => void onEvents(err, events).catch(options.onError), {
    ignore: [...excludeDirs.filter((d) => d !== '.git').flatMap(ignored), '**/.git/objects/**', ...ignorePaths],
  });

  return {
    get scans() {
      return scans;
    },
    async close() {
      closed = true;
      held = false;
      debounced.cancel();
      await subscription.unsubscribe();
    },
  };
}
