/** Result filters shared by every query: scope (path prefix or glob), exclude globs, file kind. */
import { checkPattern, usageError } from '../errors/index.js';
import { GlobError, globTester } from '../walk/index.js';

export interface PathFilterOptions {
  /** A directory prefix (`src/auth`) or a glob (`src/**\/*.ts`). */
  scope?: string;
  exclude?: string[];
}

function isGlob(s: string): boolean {
  return /[*?[\]{}!]/.test(s);
}

/** A caller's glob as a linear-time predicate; an empty, over-long or unmatchable one is refused, naming the argument. */
export function callerGlob(glob: string, argument: string): (path: string) => boolean {
  checkPattern(glob, argument);
  try {
    return globTester(glob);
  } catch (err) {
    if (err instanceof GlobError) throw usageError(`${argument}: ${err.message}`);
    throw err;
  }
}

/** The filter of a call that names no scope and no exclude: callers test for it to skip filtering whole lists. */
export const everyPath = (_path: string): boolean => true;

/** Returns a predicate over repo-relative POSIX paths; `everyPath` itself when nothing is filtered. */
export function pathFilter(options: PathFilterOptions): (path: string) => boolean {
  if (options.scope !== undefined) checkPattern(options.scope, 'scope');
  const scope = options.scope?.trim().replace(/^\.\/+/, '').replace(/\/+$/, '');
  const unscoped = !scope || scope === '.';
  if (unscoped && !options.exclude?.length) return everyPath;
  const inScope = unscoped
    ? everyPath
    : isGlob(scope)
      ? callerGlob(scope, 'scope')
      : (p: string) => p === scope || p.startsWith(scope + '/');
  const excludes = (options.exclude ?? []).map((g, i) => callerGlob(g, `exclude[${i}]`));
  return (p) => inScope(p) && !excludes.some((excluded) => excluded(p));
}
