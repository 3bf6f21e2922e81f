/**
 * Claims: exclusive authorship of one memory record, with a fencing token
 * every write under the claim presents (fence.ts). The lock grants the token
 * (strictly increasing, above every token ever issued), bounds it with a
 * lease, and queues waiters first in, first out; granting stamps the token on
 * the record as its high-water mark in the same transaction.
 */
import { usageError } from '../errors/index.js';
import { iso, type Memory } from './handle.js';
import { parseMemoryKey } from './keys.js';
import { checkSeconds, isLive } from './record.js';
import { DEFAULT_LEASE_SECONDS, MAX_LEASE_SECONDS } from './limits.js';
import type { ClaimRow, Clock, Decision, RecordState, Waiter } from './types.js';

const MAX_WAIT_SECONDS = 600;
/** A queued waiter that stopped polling this long ago has gone (its process died). */
export const WAITER_STALE_MS = 2000;
const POLL_MS = 15;

const clampLease = (seconds: number | undefined) => Math.min(seconds ?? DEFAULT_LEASE_SECONDS, MAX_LEASE_SECONDS);
const held = (c: ClaimRow | undefined, nowMs: number) => c !== undefined && c.lockToken > 0 && c.leaseExpiresAtMs > nowMs;
const exists = (s: RecordState, nowMs: number) => isLive(s.record, nowMs);

type ClaimAttempt = { granted: true; fencing_token: number; lease_seconds: number; lease_expires_at: string } | { granted: false; reason: 'missing' | 'contended' | 'timeout' };

/** One try at the lock: granted when free and no earlier waiter is queued; `waiter` keeps its place otherwise. */
function attempt(state: RecordState, clock: Clock, owner: string, leaseSeconds: number, waiter: Waiter | undefined): Decision<ClaimAttempt> {
  const gone = state.waiters.filter((w) => w.seenAtMs < clock.nowMs - WAITER_STALE_MS && w.id !== waiter?.id).map((w) => w.id);
  if (!exists(state, clock.nowMs)) return { result: { granted: false, reason: 'missing' }, dequeue: waiter ? [waiter.id] : [] };
  const queue = state.waiters.filter((w) => !gone.includes(w.id));
  const first = queue[0];
  const myTurn = waiter ? first === undefined || first.id === waiter.id : first === undefined;
  if (held(state.claim, clock.nowMs) || !myTurn) {
    const queued = waiter && !queue.some((w) => w.id === waiter.id);
    return { result: { granted: false, reason: 'contended' }, dequeue: gone, enqueue: queued ? waiter : undefined, touch: waiter ? [waiter.id] : [] };
  }
  const token = clock.token();
  const leaseExpiresAtMs = clock.nowMs + leaseSeconds * 1000;
  const prior = state.claim;
  return {
    result: { granted: true, fencing_token: token, lease_seconds: leaseSeconds, lease_expires_at: iso(leaseExpiresAtMs)! },
    claim: { key: state.record!.key, highWater: token, live: true, releasedToken: prior?.releasedToken ?? 0, owner, lockToken: token, leaseExpiresAtMs, leaseSeconds },
    dequeue: waiter ? [...gone, waiter.id] : gone,
  };
}

export async function claim(memory: Memory, input: { key: string; owner: string; lease_seconds?: number; max_wait_seconds?: number }) {
  const { key } = parseMemoryKey(input.key, memory.root);
  if (!input.owner?.trim()) throw usageError('owner must name the claiming agent, e.g. "agent-7"');
  const leaseSeconds = clampLease(checkSeconds('lease_seconds', input.lease_seconds, Number.MAX_SAFE_INTEGER));
  const maxWait = checkSeconds('max_wait_seconds', input.max_wait_seconds, MAX_WAIT_SECONDS);
  const envelope = (r: ClaimAttempt) => ({ status: 'ok' as const, key, owner: input.owner, ...r });
  if (maxWait === undefined) return envelope(await memory.store.decide(key, (s, c) => attempt(s, c, input.owner, leaseSeconds, undefined)));
  const deadline = Date.now() + maxWait * 1000;
  const now = Date.now();
  // The global Web Crypto, loaded on first use: importing node:crypto cost every verb ~10 ms at start.
  const waiter: Waiter = { id: crypto.randomUUID(), owner: input.owner, enqueuedAtMs: now, seenAtMs: now };
  for (;;) {
    const r = await memory.store.decide(key, (s, c) => attempt(s, c, input.owner, leaseSeconds, waiter));
    if (r.granted || r.reason === 'missing') return envelope(r);
    if (Date.now() >= deadline) {
      await memory.store.decide(key, () => ({ result: null, dequeue: [waiter.id] }));
      return envelope({ granted: false, reason: 'timeout' });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS + Math.random() * POLL_MS));
  }
}

export interface RenewResult {
  status: 'ok';
  key: string;
  fencing_token: number;
  granted: boolean;
  reason?: 'missing' | 'superseded';
  lease_seconds?: number;
  lease_expires_at?: string | null;
  lease_shortened?: boolean;
  previous_lease_expires_at?: string | null;
}

export async function renewClaim(memory: Memory, input: { key: string; fencing_token: number; lease_seconds?: number }) {
  const { key } = parseMemoryKey(input.key, memory.root);
  const leaseSeconds = clampLease(checkSeconds('lease_seconds', input.lease_seconds, Number.MAX_SAFE_INTEGER));
  return memory.store.decide<RenewResult>(key, (state, clock) => {
    const base = { status: 'ok' as const, key, fencing_token: input.fencing_token };
    if (!exists(state, clock.nowMs)) return { result: { ...base, granted: false, reason: 'missing' as const } };
    const c = state.claim;
    if (!c || c.lockToken !== input.fencing_token || !held(c, clock.nowMs)) {
      // A lapsed lease is reclaimed at every renew, so the holder learns it is gone and must re-claim.
      const reclaim = c && c.lockToken > 0 && !held(c, clock.nowMs) ? { ...c, lockToken: 0 } : undefined;
      return { result: { ...base, granted: false, reason: 'superseded' as const }, claim: reclaim };
    }
    const leaseExpiresAtMs = clock.nowMs + leaseSeconds * 1000;
    return {
      result: {
        ...base,
        granted: true,
        lease_seconds: leaseSeconds,
        lease_expires_at: iso(leaseExpiresAtMs),
        lease_shortened: leaseExpiresAtMs < c.leaseExpiresAtMs,
        previous_lease_expires_at: iso(c.leaseExpiresAtMs),
      },
      claim: { ...c, leaseExpiresAtMs, leaseSeconds },
    };
  });
}

export interface ReleaseResult {
  status: 'ok';
  key: string;
  fencing_token: number;
  released: boolean;
  reason?: 'missing' | 'unclaimed' | 'stale';
}

export async function releaseClaim(memory: Memory, input: { key: string; fencing_token: number }) {
  const { key } = parseMemoryKey(input.key, memory.root);
  return memory.store.decide<ReleaseResult>(key, (state, clock) => {
    const base = { status: 'ok' as const, key, fencing_token: input.fencing_token };
    if (!exists(state, clock.nowMs)) return { result: { ...base, released: false, reason: 'missing' as const } };
    const c = state.claim;
    if (!c) return { result: { ...base, released: false, reason: 'unclaimed' as const } };
    // Decided by the record's fence, not the lock: only the high-water token releases, and it stays refused after.
    if (input.fencing_token !== c.highWater) return { result: { ...base, released: false, reason: 'stale' as const } };
    const next = { ...c, live: false, releasedToken: Math.max(c.releasedToken, c.highWater), lockToken: c.lockToken === c.highWater ? 0 : c.lockToken };
    return { result: { ...base, released: true }, claim: next };
  });
}

/** A point-in-time observation, never an entitlement: only claim grants and only the fence enforces. */
export async function claimStatus(memory: Memory, input: { key: string }) {
  const { key } = parseMemoryKey(input.key, memory.root);
  const state = await memory.store.read(key);
  const nowMs = Date.now();
  if (!exists(state, nowMs)) return { status: 'ok' as const, key, exists: false, authoritative: false as const };
  const c = state.claim;
  const isHeld = held(c, nowMs);
  return {
    status: 'ok' as const,
    key,
    exists: true,
    claimed: c?.live ?? false,
    fencing_token: c?.highWater ?? null,
    released_fencing_token: c?.releasedToken || null,
    owner: c?.owner ?? null,
    is_held: isHeld,
    lock_fencing_token: isHeld ? c!.lockToken : 0,
    lease_expires_at: isHeld ? iso(c!.leaseExpiresAtMs) : null,
    queue_depth: state.waiters.filter((w) => w.seenAtMs >= nowMs - WAITER_STALE_MS).length,
    authoritative: false as const,
  };
}
