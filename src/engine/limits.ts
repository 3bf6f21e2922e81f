/**
 * The bounds the engine enforces and the faces advertise: defaults and
 * ceilings only, importing nothing, so a CLI verb states them in its help
 * without loading the engine (the CLI's start path, see ARCHITECTURE.md).
 */

/** search: results returned when the caller asks for no k. */
export const DEFAULT_K = 10;

/** context: the budget a caller may ask for, and the most files a bundle ranks. */
export const MIN_BUDGET_TOKENS = 128;
export const MAX_BUDGET_TOKENS = 200_000;
export const MAX_TOP = 50;

/** explore: the relations it walks, and how far. */
export const EXPLORE_RELATIONS = ['callers', 'callees', 'dependencies', 'dependents', 'impact', 'overview', 'auto'] as const;
export const MAX_DEPTH = 3;

/** Memory entries an answer carries at most: a pointer to what was decided, not a second result list. */
export const MEMORY_HITS = 3;
