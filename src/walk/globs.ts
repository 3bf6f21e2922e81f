/** Include/exclude glob matching against repo-relative POSIX paths. */
import picomatch from 'picomatch';

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
    return { glob, onBasename, test: picomatch(normalised, { dot: true }) };
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
