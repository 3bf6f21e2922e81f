/**
 * The claims contract every memory backend keeps: the enforcement table, cell
 * by cell, for every write (remember, update, forget), and the claim verbs'
 * reasons. Run against SQLite (claims.test.ts) and PostgreSQL
 * (test/team/memory.test.ts) alike.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { claim, claimStatus, forget, releaseClaim, remember, renewClaim, update, type Memory } from '../../src/memory/index.js';

export function claimsContract(mem: () => Memory): void {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let n = 0;
  let key = '';

  beforeEach(async () => {
    key = `memory:backlog/item-${++n}`;
    await remember(mem(), { topic: 'backlog', id: `item-${n}`, body: 'todo' });
  });

  /** Each write the fence guards, as a function of the token presented. */
  const WRITES: Record<string, (token?: number) => Promise<unknown>> = {
    remember: (t) => remember(mem(), { topic: 'backlog', id: key.split('/')[1], title: 'x', fencing_token: t }),
    update: (t) => update(mem(), { key, fields: { body: 'done' }, fencing_token: t }),
    forget: (t) => forget(mem(), { key, lapse: true, fencing_token: t }),
  };

  async function claimed(): Promise<number> {
    const r = await claim(mem(), { key, owner: 'w1' });
    expect(r.granted).toBe(true);
    return (r as { fencing_token: number }).fencing_token;
  }

  describe.each(Object.keys(WRITES))('the fence on %s', (write) => {
    const run = (t?: number) => WRITES[write]!(t);
    const refused = (t: number | undefined, reason: string) => expect(run(t)).rejects.toThrow(new RegExp(`^${reason}:`));

    it('never claimed: any token, or none, is accepted', async () => {
      await expect(run(undefined)).resolves.toMatchObject({ status: 'ok' });
      await expect(run(99)).resolves.toMatchObject({ status: 'ok' });
    });

    it('claim live, no token: ClaimRequired', async () => {
      await claimed();
      await refused(undefined, 'ClaimRequired');
    });

    it('claim live, the high-water token: accepted', async () => {
      const t = await claimed();
      await expect(run(t)).resolves.toMatchObject({ status: 'ok' });
    });

    it('claim released, no token: accepted', async () => {
      const t = await claimed();
      await releaseClaim(mem(), { key, fencing_token: t });
      await expect(run(undefined)).resolves.toMatchObject({ status: 'ok' });
    });

    it('below the high-water mark: StaleToken, live or released', async () => {
      const old = await claimed();
      await releaseClaim(mem(), { key, fencing_token: old });
      const t = await claimed();
      await refused(old, 'StaleToken');
      await releaseClaim(mem(), { key, fencing_token: t });
      await refused(old, 'StaleToken');
    });

    it('above the high-water mark: UnissuedToken, live or released', async () => {
      const t = await claimed();
      await refused(t + 1000, 'UnissuedToken');
      await releaseClaim(mem(), { key, fencing_token: t });
      await refused(t + 1000, 'UnissuedToken');
    });

    it('claim released, the high-water token: ClaimReleased', async () => {
      const t = await claimed();
      await releaseClaim(mem(), { key, fencing_token: t });
      await refused(t, 'ClaimReleased');
    });

    it('a refused write changes nothing', async () => {
      const before = (await mem().store.read(key)).record;
      await claimed();
      await refused(undefined, 'ClaimRequired');
      expect((await mem().store.read(key)).record).toEqual(before);
    });
  });

  describe('claims', () => {
    it('tokens strictly increase across records and claims', async () => {
      const a = await claimed();
      await releaseClaim(mem(), { key, fencing_token: a });
      const b = await claimed();
      expect(b).toBeGreaterThan(a);
    });

    it('losing is reported, not thrown: contended, missing, timeout', async () => {
      await claimed();
      await expect(claim(mem(), { key, owner: 'w2' })).resolves.toMatchObject({ granted: false, reason: 'contended' });
      await expect(claim(mem(), { key: 'memory:backlog/none', owner: 'w2' })).resolves.toMatchObject({ granted: false, reason: 'missing' });
      await expect(claim(mem(), { key, owner: 'w2', max_wait_seconds: 1 })).resolves.toMatchObject({ granted: false, reason: 'timeout' });
      expect(await claimStatus(mem(), { key })).toMatchObject({ queue_depth: 0, authoritative: false }); // the timed-out waiter left the queue
    });

    it('claims only memory records, and clamps the lease', async () => {
      await expect(claim(mem(), { key: 'file:src/a.ts', owner: 'w1' })).rejects.toThrow(/only memory records/);
      const r = await claim(mem(), { key, owner: 'w1', lease_seconds: 999_999 });
      expect(r).toMatchObject({ granted: true, lease_seconds: 1800 });
    });

    it('waiters are served first in, first out', async () => {
      const t = await claimed();
      const order: string[] = [];
      const wait = (owner: string) => claim(mem(), { key, owner, max_wait_seconds: 10 }).then((r) => (order.push(owner), r));
      // Each waiter is in the queue before the next one comes (a backend's decision may take a few round trips).
      const queued = async (depth: number) => {
        while (((await claimStatus(mem(), { key })).queue_depth ?? 0) < depth) await sleep(10);
      };
      const b = wait('b');
      await queued(1);
      const c = wait('c');
      await queued(2);
      expect(await claimStatus(mem(), { key })).toMatchObject({ queue_depth: 2, owner: 'w1', is_held: true });
      await releaseClaim(mem(), { key, fencing_token: t });
      const rb = (await b) as { fencing_token: number };
      await sleep(100);
      expect(order).toEqual(['b']); // c still waits behind b's claim
      await releaseClaim(mem(), { key, fencing_token: rb.fencing_token });
      const rc = (await c) as { fencing_token: number };
      expect(order).toEqual(['b', 'c']);
      expect(rc.fencing_token).toBeGreaterThan(rb.fencing_token);
    });

    it('renew keeps the token, reports lease_shortened, and is superseded once the lease lapsed', async () => {
      const t = (await claim(mem(), { key, owner: 'w1', lease_seconds: 60 })) as { fencing_token: number };
      const shorter = await renewClaim(mem(), { key, fencing_token: t.fencing_token, lease_seconds: 1 });
      expect(shorter).toMatchObject({ granted: true, fencing_token: t.fencing_token, lease_shortened: true });
      await sleep(1100);
      expect(await claimStatus(mem(), { key })).toMatchObject({ claimed: true, is_held: false, lock_fencing_token: 0, fencing_token: t.fencing_token });
      await expect(renewClaim(mem(), { key, fencing_token: t.fencing_token, lease_seconds: 30 })).resolves.toMatchObject({ granted: false, reason: 'superseded' });
      // The lapsed holder still writes until someone else claims; then its token is stale.
      await expect(update(mem(), { key, fields: { body: 'late' }, fencing_token: t.fencing_token })).resolves.toMatchObject({ status: 'ok' });
      const next = await claimed();
      expect(next).toBeGreaterThan(t.fencing_token);
      await expect(update(mem(), { key, fields: { body: 'later' }, fencing_token: t.fencing_token })).rejects.toThrow(/^StaleToken:/);
    });

    it('release is idempotent and names stale, missing and unclaimed', async () => {
      await expect(releaseClaim(mem(), { key, fencing_token: 1 })).resolves.toMatchObject({ released: false, reason: 'unclaimed' });
      await expect(releaseClaim(mem(), { key: 'memory:backlog/none', fencing_token: 1 })).resolves.toMatchObject({ released: false, reason: 'missing' });
      const t = await claimed();
      await expect(releaseClaim(mem(), { key, fencing_token: t - 1 })).resolves.toMatchObject({ released: false, reason: 'stale' });
      await expect(releaseClaim(mem(), { key, fencing_token: t })).resolves.toMatchObject({ released: true });
      await expect(releaseClaim(mem(), { key, fencing_token: t })).resolves.toMatchObject({ released: true });
      expect(await claimStatus(mem(), { key })).toMatchObject({ claimed: false, fencing_token: t, released_fencing_token: t, is_held: false });
    });
  });
}
