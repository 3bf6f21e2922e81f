/**
 * At most N tool bodies run at once, on every transport and across sessions,
 * counted inside the body by the test-only slow tool; the transport keeps
 * answering meanwhile, even at N=1 over stdio.
 */
import { describe, expect, it } from 'vitest';
import { slowToolEnv } from '../helpers/cli.js';
import { useRepo } from '../helpers/fixture.js';
import { call, connectNetwork, connectStdio, startNetworkServer, stop, type Connected } from './harness.js';

const sample = useRepo();

const SLOW = slowToolEnv(150);

/** Fires `count` slow calls spread over the clients, plus a tools/list and a cheap call in the middle. */
async function burst(clients: Connected[], count: number) {
  let slowDone = 0;
  const slow = Array.from({ length: count }, (_, i) =>
    call(clients[i % clients.length]!.client, 'test_slow').then((r) => {
      slowDone++;
      return r.peak_running as number;
    }),
  );
  const listed = clients[0]!.client.listTools().then((r) => ({ tools: r.tools.length, slowDoneBefore: slowDone }));
  const cheap = call(clients[0]!.client, 'index_status');
  const peaks = await Promise.all(slow);
  return { peak: Math.max(...peaks), listed: await listed, cheap: await cheap };
}

describe('tool concurrency', () => {
  it('N=2 over http: 20 slow calls from two sessions never run more than 2 bodies, and the rest still answers', async () => {
    const server = await startNetworkServer('http', ['--repo', sample.root, '--tool-concurrency', '2'], { SIGHTLINE_HOME: sample.home, ...SLOW });
    const clients = [await connectNetwork(server), await connectNetwork(server)];
    try {
      const { peak, listed, cheap } = await burst(clients, 20);
      expect(peak).toBe(2);
      expect(cheap.status).toBe('ok');
      expect(listed.tools).toBeGreaterThan(0);
      expect(listed.slowDoneBefore).toBeLessThan(20); // listing did not wait for the burst
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await stop(server);
    }
  });

  it('N=2 over stdio and sse hold the same bound', async () => {
    const stdio = await connectStdio(['--repo', sample.root], { SIGHTLINE_HOME: sample.home, ...SLOW });
    const server = await startNetworkServer('sse', ['--repo', sample.root], { SIGHTLINE_HOME: sample.home, ...SLOW });
    const sse = await connectNetwork(server);
    try {
      expect((await burst([stdio], 8)).peak).toBe(2);
      expect((await burst([sse], 8)).peak).toBe(2);
    } finally {
      await stdio.close();
      await sse.close();
      await stop(server);
    }
  });

  it('N=1 over stdio still answers: one body at a time, tools/list and a cheap call go through', async () => {
    const conn = await connectStdio(['--repo', sample.root, '--tool-concurrency', '1'], { SIGHTLINE_HOME: sample.home, ...SLOW });
    try {
      const { peak, listed, cheap } = await burst([conn], 6);
      expect(peak).toBe(1);
      expect(cheap.status).toBe('ok');
      expect(listed.slowDoneBefore).toBeLessThan(6);
      expect((await call(conn.client, 'health')).server.tool_concurrency).toBe(1);
    } finally {
      await conn.close();
    }
  });
});

describe('an answer that queued says so', () => {
  it('N=1 over stdio: a heavy call behind two slow ones carries queued_ms; the first slow call and a pooled read do not', async () => {
    const conn = await connectStdio(['--repo', sample.root, '--tool-concurrency', '1'], { SIGHTLINE_HOME: sample.home, ...slowToolEnv(300) });
    try {
      const slow = [call(conn.client, 'test_slow'), call(conn.client, 'test_slow')];
      const changed = call(conn.client, 'changed');
      const pooled = call(conn.client, 'outline', { path: 'src/auth/session.ts' });
      const [first, second] = (await Promise.all(slow)).sort((a, b) => (a.queued_ms ?? 0) - (b.queued_ms ?? 0));
      expect(first.queued_ms).toBeUndefined(); // whichever reached the slot first did not wait
      expect(second.queued_ms).toBeGreaterThan(0);
      const heavy = await changed;
      expect(heavy.status).toBe('ok');
      expect(heavy.queued_ms).toBeGreaterThan(0);
      const read = await pooled;
      expect(read.queued_ms).toBeUndefined(); // answered by a read worker, outside the bound
      expect((await call(conn.client, 'index_status')).queued_ms).toBeUndefined(); // nothing ahead of it now
    } finally {
      await conn.close();
    }
  });
});

describe('choosing N: flag, then SIGHTLINE_MCP_TOOL_CONCURRENCY, then 2; bad values warn and are skipped', () => {
  const cases: [string, string[], Record<string, string>, number, RegExp | null][] = [
    ['default', [], {}, 2, null],
    ['env', [], { SIGHTLINE_MCP_TOOL_CONCURRENCY: '3' }, 3, null],
    ['flag over env', ['--tool-concurrency', '1'], { SIGHTLINE_MCP_TOOL_CONCURRENCY: '3' }, 1, null],
    ['bad flag falls to env', ['--tool-concurrency', 'abc'], { SIGHTLINE_MCP_TOOL_CONCURRENCY: '3' }, 3, /--tool-concurrency="abc" is not a positive integer; ignored/],
    ['bad env falls to default', [], { SIGHTLINE_MCP_TOOL_CONCURRENCY: '0' }, 2, /SIGHTLINE_MCP_TOOL_CONCURRENCY="0" is not a positive integer; ignored/],
    ['fractions are not integers', ['--tool-concurrency', '1.5'], {}, 2, /is not a positive integer/],
    ['blank env is unset', [], { SIGHTLINE_MCP_TOOL_CONCURRENCY: ' ' }, 2, null],
  ];
  it.each(cases)('%s', async (_name, args, env, expected, warning) => {
    const conn = await connectStdio(['--repo', sample.root, ...args], { SIGHTLINE_HOME: sample.home, ...env });
    try {
      expect((await call(conn.client, 'health')).server.tool_concurrency).toBe(expected);
      if (warning) expect(conn.stderr()).toMatch(warning);
      else expect(conn.stderr()).not.toContain('warning');
    } finally {
      await conn.close();
    }
  });
});
