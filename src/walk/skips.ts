/**
 * The skip ledger's reasons: every way a file or directory the walk saw is
 * left out of the index, and what it means. The pass's summary, `stats`,
 * `doctor` and the dry run all count skips by these names, with `tallySkips`,
 * so they report the same reasons with the same counts.
 */

export const SKIP_REASONS = {
  gitignore: 'matched a .gitignore or .git/info/exclude rule',
  default_exclude: 'a directory excluded by name (excludeDirs)',
  glob_exclude: 'matched an exclude glob',
  glob_include: 'matched no include glob',
  too_large: 'larger than maxFileBytes',
  symlink_escape: 'a symlink to outside the repository',
  symlink_dir: 'a symlink to a directory inside the repository, whose files are indexed where they are',
  not_regular: 'not a regular file (FIFO, socket, device) or a symlink loop',
  unreadable: 'could not be read (permissions, I/O, a name that is not valid UTF-8); every pass retries it',
  binary: 'binary content: a NUL byte near the start, in no UTF-16 or UTF-32 pattern',
  too_slow: 'took longer than the per-file budget to parse and count',
} as const;

export type SkipReason = keyof typeof SKIP_REASONS;

/** Skips by reason, most first (ties by name), every count above zero. */
export type SkipTally = Record<string, number>;

export function isSkipReason(reason: string): reason is SkipReason {
  return Object.hasOwn(SKIP_REASONS, reason);
}

export function tallySkips(reasons: Iterable<string>): SkipTally {
  const out = new Map<string, number>();
  for (const r of reasons) out.set(r, (out.get(r) ?? 0) + 1);
  return Object.fromEntries([...out].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** One line for people: "3 left out: 2 binary, 1 unreadable", or "nothing left out". */
export function describeSkips(tally: SkipTally): string {
  const entries = Object.entries(tally);
  const total = entries.reduce((s, [, n]) => s + n, 0);
  if (total === 0) return 'nothing left out';
  return `${total} left out: ${entries.map(([r, n]) => `${n} ${r}`).join(', ')}`;
}
