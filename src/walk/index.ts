/**
 * sightline walk module: repository enumeration and safe source reading.
 * Usable on its own (no dependency on the rest of sightline).
 */
export { DEFAULT_EXCLUDES, walk } from './walker.js';
export type { WalkOptions, WalkedFile, SkipReason, SkippedEntry, WalkResult } from './walker.js';
export { isBinary, digest, readSource, readSourceInside } from './source.js';
export { openInside, readInsideSync } from './open.js';
export type { ReadOutcome } from './source.js';
export { MAX_PATH_CHARS, resolveInside, PathEscapeError } from './paths.js';
export { GlobError, globTester } from './globs.js';
export { createPathFilter, walkPaths, type PathFilter, type PathsResult } from './filter.js';
