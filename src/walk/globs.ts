/** Include/exclude glob matching against repo-relative POSIX paths. */
import { createRequire } from 'node:module';
import type Picomatch from 'picomatch';
import type { RE2JS } from 're2js';

/**
 * picomatch and re2js (~320 KB of code) are loaded by the first glob compiled, not with this
 * module: the walk's door is on every verb's path (a search reads `digest` through it), and most
 * runs compile no glob. Synchronously, through `require`, as compiling is synchronous.
 */
let engines: { picomatch: typeof Picomatch; RE2JS: typeof RE2JS } | undefined;
function globEngines(): NonNullable<typeof engines> {
  if (!engines) {
    const require = createRequire(import.meta.url);
    engines = { picomatch: require('picomatch') as typeof Picomatch, RE2JS: (require('re2js') as { RE2JS: typeof RE2JS }).RE2JS };
  }
  return engines;
}

/** A glob that cannot be matched in linear time (an extglob negation such as `!(foo)`), or that picomatch cannot read. */
export class GlobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GlobError';
  }
}

/**
 * The lookarounds picomatch adds to keep `*` and `**` off `.` and `..`
 * segments, and `(?=.)` against matching nothing. Repo-relative paths have
 * neither such segments nor empty names, so dropping them changes no answer
 * and leaves a pattern RE2 can run.
 */
const DOT_GUARDS = ['(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?!\\.{1,2}(?:\\/|$))', '(?=.)'];

/**
 * A predicate for one glob (picomatch syntax, `dot: true`), run on RE2:
 * picomatch's own regexes backtrack, and `*a*a*a*a*a*a*a*a*b` against a
 * 60-character path took 78 s. A leading `!` negates, as in picomatch.
 */
export function globTester(glob: string): (path: string) => boolean {
  const { picomatch, RE2JS } = globEngines();
  const negated = glob.startsWith('!') && !glob.startsWith('!(');
  let source: string;
  try {
    source = picomatch.makeRe(negated ? glob.slice(1) : glob, { dot: true }).source;
  } catch (err) {
    throw new GlobError(`invalid glob ${glob}: ${(err as Error).message}`);
  }
  for (const guard of DOT_GUARDS) source = source.split(guard).join('');
  if (/\(\?<?[=!]/.test(source)) throw new GlobError(`the glob ${glob} uses a negated extglob (!(…)), which cannot be matched in linear time: list what to keep instead, or use exclude`);
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (err) {
    throw new GlobError(`the glob ${glob} cannot be matched: ${(err as Error).message}`);
  }
  return negated ? (p) => !re.test(p) : (p) => re.test(p);
}

/** Returns the first glob that matches a path, or undefined. */
export type GlobMatcher = (relPath: string) => string | undefined;

/**
 * Compile globs with picomatch (`dot: true`, so dot-files are not special).
 * A glob containing a '/' is matched against the whole repo-relative path; one
 * without a slash (e.g. "*.ts") is matched against the file's basename, so it
 * applies at any depth — the gitignore/ripgrep convention. A leading "./" or
 * "/" is dropped (paths are relative to the root anyway).
 */
export function compileGlobs(globs: readonly string[] | undefined): GlobMatcher | undefined {
  const list = (globs ?? []).map((g) => g.trim()).filter((g) => g.length > 0);
  if (list.length === 0) return undefined;
  const compiled = list.map((glob) => {
    const normalised = glob.replace(/^(\.\/)+/, '').replace(/^\/+/, '');
    const onBasename = !normalised.includes('/');
    return { glob, onBasename, test: globTester(normalised) };
  });
  return (relPath) => {
    const slash = relPath.lastIndexOf('/');
    const base = slash === -1 ? relPath : relPath.slice(slash + 1);
    for (const c of compiled) {
      if (c.test(c.onBasename ? base : relPath)) return c.glob;
    }
    return undefined;
  };
}
