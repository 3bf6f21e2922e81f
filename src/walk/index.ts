/**
 * sightline walk module: repository enumeration and safe source reading.
 * Usable on its own (no dependency on the rest of sightline).
 */
export { BUILD_OUTPUTS, DEFAULT_EXCLUDES, walk } from './walker.js';
export { Listings } from './listings.js';
export type { WalkOptions, WalkedFile, SkippedEntry, WalkResult } from './walker.js';
export { SKIP_REASONS, describeSkips, isSkipReason, tallySkips, type SkipReason, type SkipTally } from './skips.js';
export { digest, readSource, readSourceInside } from './source.js';
export { Turns } from './turns.js';
export { BINARY_SNIFF_BYTES, decodeSource, type Decoded, type TextEncoding } from './encoding.js';
export { openInside, readInsideSync } from './open.js';
export type { ReadOutcome } from './source.js';
export { MAX_PATH_CHARS, resolveInside, PathEscapeError } from './paths.js';
export { GlobError, globTester } from './globs.js';
export { createPathFilter, walkPaths, type PathFilter, type PathsResult } from './filter.js';
