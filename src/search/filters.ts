/** Result filters shared by every query: scope (path prefix or glob), exclude globs, file kind. */
import picomatch from 'picomatch';

export interface PathFilterOptions {
  /** A directory prefix (`src/auth`) or a glob (`src/**\/*.ts`). */
  scope?: string;
  exclude?: string[];
}

function isGlob(s: string): boolean {
  return /[*?[\]{}!]/.test(s);
}

/** Returns a predicate over repo-relative POSIX paths. */
export function pathFilter(options: PathFilterOptions): (path: string) => boolean {
  const scope = options.scope?.trim().replace(/^\.\/+/, '').replace(/\/+$/, '');
  const inScope = !scope || scope === '.'
    ? () => true
    : isGlob(scope)
      ? picomatch(scope, { dot: true })
      : (p: string) => p === scope || p.startsWith(scope + '/');
  const excluded = options.exclude?.length ? picomatch(options.exclude, { dot: true }) : () => false;
  return (p) => inScope(p) && !excluded(p);
}
