/**
 * The fencing check every write to a memory record passes (remember, update,
 * forget), decided from the record's claim alone. The write path never reads
 * the lease: a lapsed holder is fenced out by the strictly higher token the
 * next claim stamps, not by a clock.
 *
 *   record state            token presented                  outcome
 *   never claimed           any or none                      accept
 *   claim live              none                             ClaimRequired
 *   claim released          none                             accept
 *   claimed                 below the high-water mark        StaleToken
 *   claimed                 above it, not the lock's token   UnissuedToken
 *   claim released          at the high-water mark           ClaimReleased
 *   claim live              at the high-water mark           accept
 */
import { SightlineError } from '../errors/index.js';
import type { ClaimRow } from './types.js';

export type FenceReason = 'ClaimRequired' | 'StaleToken' | 'UnissuedToken' | 'ClaimReleased';

export class ClaimConflict extends SightlineError {
  constructor(
    readonly reason: FenceReason,
    key: string,
    detail: string,
  ) {
    super('conflict', `${reason}: ${key} ${detail}`);
  }
}

export function fenceOutcome(claim: ClaimRow | undefined, token: number | undefined): FenceReason | 'accept' {
  if (!claim) return 'accept';
  if (token === undefined) return claim.live ? 'ClaimRequired' : 'accept';
  if (token < claim.highWater) return 'StaleToken';
  // A token ahead of the stamp is honoured only if the lock issued it; here the lock and the stamp
  // change in one transaction, so the lock's token is never ahead (a team backend may differ).
  if (token > claim.highWater) return token === claim.lockToken ? 'accept' : 'UnissuedToken';
  return claim.live ? 'accept' : 'ClaimReleased';
}

const DETAILS: Record<FenceReason, (c: ClaimRow, t: number | undefined) => string> = {
  ClaimRequired: (c) => `is claimed by ${c.owner ?? 'another agent'} (fencing token ${c.highWater}); claim it and pass fencing_token`,
  StaleToken: (c, t) => `refused fencing token ${t}: a later claim holds token ${c.highWater}; stop writing and claim again`,
  UnissuedToken: (c, t) => `refused fencing token ${t}: no claim issued it (the latest is ${c.highWater})`,
  ClaimReleased: (c, t) => `refused fencing token ${t}: that claim was released; claim again (the record's high-water mark is ${c.highWater})`,
};

/** Throws the named refusal unless the write is admitted. */
export function checkFence(key: string, claim: ClaimRow | undefined, token: number | undefined): void {
  const outcome = fenceOutcome(claim, token);
  if (outcome !== 'accept') throw new ClaimConflict(outcome, key, DETAILS[outcome](claim!, token));
}
