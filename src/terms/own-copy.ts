/**
 * A string that holds its own characters. V8 makes a substring of 13 or more
 * characters (a regex match, a slice) a view into the string it was cut from,
 * so a cache keyed by a word from a file keeps that whole file alive: the
 * index's per-thread word and token caches held hundreds of files' text each
 * (a prepare worker died at its heap limit on a 50,000-file tree). Joining
 * forces a flat copy; slicing that copy drops the joined space.
 */
export function ownCopy(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}
