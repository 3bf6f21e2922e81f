/**
 * The bounds memory enforces and the faces advertise, importing nothing, so a
 * CLI verb states them in its help without loading memory (the CLI's start
 * path, see ARCHITECTURE.md).
 */

/** remember/update: how long a record outlives its last refresh when lapse is asked without a number. */
export const DEFAULT_LAPSE_SECONDS = 60;

/** claim: the lease a claim holds when none is asked, and the longest one. */
export const DEFAULT_LEASE_SECONDS = 30;
export const MAX_LEASE_SECONDS = 1800;

/** scan and neighbors: what they walk, a page's size, and how far and wide a neighbourhood goes. */
export const SCAN_SCOPES = ['files', 'symbols', 'memory', 'memory_topic'] as const;
export const MAX_PAGE_SIZE = 500;
export const MAX_NEIGHBOR_DEPTH = 3;
export const MAX_NEIGHBOR_NODES = 100;
