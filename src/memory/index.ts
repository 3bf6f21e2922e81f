/**
 * Agent memory: records under topics whose links to code go stale when the
 * code moves, claims with fencing tokens that make a shared backlog safe, and
 * paged scans. The one front door: open a repository's memory, then call the
 * verbs below with it.
 */
import type { Store } from '../store/index.js';
import { codeIndexOf } from './code.js';
import type { Memory } from './handle.js';
import { SqliteMemoryStore } from './sqlite.js';
import type { MemoryStore } from './types.js';

/** `backend` is a team store (src/team) when one is configured; by default memory lives in the index file. */
export function openMemory(store: () => Store, root: string, budget: (requested?: number) => number, backend?: MemoryStore): Memory {
  return { store: backend ?? new SqliteMemoryStore(store().db), code: codeIndexOf(store), root, budget };
}

export type { Memory } from './handle.js';
export type { CodeIndex, CodeNode } from './code.js';
export type { ClaimRow, Clock, Decision, MemoryStore, PageQuery, RecordState, StoredRecord, Waiter } from './types.js';
export { DEFAULT_LAPSE_SECONDS, DEFAULT_LEASE_SECONDS, MAX_LEASE_SECONDS, MAX_NEIGHBOR_DEPTH, MAX_NEIGHBOR_NODES, MAX_PAGE_SIZE, SCAN_SCOPES } from './limits.js';
export { KINDS, MEMORY_FIELDS, type Kind, type MemoryField } from './types.js';
export { remember, update, forget, recall, type RecallInput, type RememberInput, type UpdateInput, type ForgetInput } from './records.js';
export { claim, renewClaim, releaseClaim, claimStatus } from './claims.js';
export { listTopics, neighbors, scan, type NeighborsInput, type ScanInput } from './browse.js';
export { ClaimConflict, fenceOutcome, type FenceReason } from './fence.js';
export { join, LIMITS } from './record.js';
export { findMemory, type MemoryHit } from './find.js';
export { containsPattern, decodeClaim, decodeRecord, recordWords, type ClaimDbRow, type RecordRow } from './codec.js';
