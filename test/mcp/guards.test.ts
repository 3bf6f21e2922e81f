/** The pure pieces behind the network rules: tokens, Host and Origin checks, the bind rule, access-log lines, the semaphore. */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { accessLogLine } from '../../src/mcp/access-log.js';
import { bearerMatches, mintToken, resolveToken } from '../../src/mcp/auth.js';
import { resolveToolConcurrency, Semaphore } from '../../src/mcp/concurrency.js';
import { allowedHostnames, bindRefusal, hostAllowed, originAllowed } from '../../src/mcp/guards.js';

describe('tokens', () => {
  it('mints 43 base64url characters from 32 random bytes, fresh each time', () => {
    const a = mintToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(mintToken()).not.toBe(a);
  });

  it('a pinned token wins; a blank one is unset', () => {
    expect(resolveToken({ SIGHTLINE_MCP_TOKEN: 'pinned' })).toEqual({ token: 'pinned', pinned: true });
    for (const blank of [undefined, '', '  ', '\n']) {
      const r = resolveToken({ SIGHTLINE_MCP_TOKEN: blank });
      expect(r.pinned).toBe(false);
      expect(r.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it('matches only "Bearer <the token>"', () => {
    expect(bearerMatches('Bearer abc', 'abc')).toBe(true);
    expect(bearerMatches('bearer abc', 'abc')).toBe(true);
    for (const bad of [undefined, '', 'abc', 'Bearer', 'Bearer ', 'Bearer ab', 'Bearer abcd', 'Basic abc', 'Bearer abc extra']) {
      expect(bearerMatches(bad, 'abc'), String(bad)).toBe(false);
    }
  });
});

describe('Host and Origin', () => {
  const loopback = allowedHostnames('127.0.0.1');

  it('allow loopback names and the bound host, on any port', () => {
    for (const host of ['127.0.0.1:8765', 'localhost:1', 'LOCALHOST', '[::1]:8765']) expect(hostAllowed(host, loopback), host).toBe(true);
    const bound = allowedHostnames('192.0.2.10');
    expect(hostAllowed('192.0.2.10:8765', bound)).toBe(true);
    expect(hostAllowed('192.0.2.10:8765', loopback)).toBe(false);
    expect(hostAllowed('[::1]:1', allowedHostnames('::1'))).toBe(true);
  });

  it('refuse other names, wildcards and a missing Host', () => {
    for (const host of [undefined, '', 'evil.example', 'localhost.evil.example:8765', '127.0.0.1.nip.io', '0.0.0.0:8765', 'a b']) {
      expect(hostAllowed(host, allowedHostnames('0.0.0.0')), String(host)).toBe(false);
    }
  });

  it('an Origin must be this server or loopback; no Origin is not a browser', () => {
    expect(originAllowed(undefined, loopback)).toBe(true);
    expect(originAllowed('http://localhost:3000', loopback)).toBe(true);
    expect(originAllowed('https://127.0.0.1', loopback)).toBe(true);
    for (const origin of ['https://evil.example', 'null', 'http://localhost.evil.example', 'file://']) expect(originAllowed(origin, loopback), origin).toBe(false);
  });

  it('binding beyond loopback needs --allow-remote', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]']) expect(bindRefusal(host, false), host).toBeNull();
    for (const host of ['0.0.0.0', '::', '192.0.2.10', 'example.com', '127.0.0.2']) {
      expect(bindRefusal(host, false), host).toMatch(/--allow-remote/);
      expect(bindRefusal(host, true)).toBeNull();
    }
  });
});

describe('access log', () => {
  it('writes client, request line and status, with control characters stripped', () => {
    const req = { method: 'GET', url: '/mcp?q=\u001b[31mred\u0007\r\nX: y', httpVersion: '1.1', socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
    expect(accessLogLine(req, 401)).toBe('127.0.0.1 "GET /mcp?q=[31mredX: y HTTP/1.1" 401');
  });
});

describe('Semaphore', () => {
  it('never runs more than its limit, frees the slot of a failing body, and reports idle', async () => {
    const gate = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const body = (i: number) => async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (i === 3) throw new Error('a failing body still releases its slot');
      return i;
    };
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => gate.run(body(i))));
    expect(peak).toBe(2);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    await gate.idle();
    expect(await gate.run(() => 'free')).toBe('free');
  });

  it('tells each body how long it waited: 0 for those that found a slot, at least 1 ms for those that queued', async () => {
    const gate = new Semaphore(2);
    const waits = await Promise.all(
      Array.from({ length: 5 }, () => gate.run(async (queuedMs) => (await new Promise((r) => setTimeout(r, 5)), queuedMs))),
    );
    expect(waits.slice(0, 2)).toEqual([0, 0]);
    for (const w of waits.slice(2)) expect(w).toBeGreaterThanOrEqual(1);
  });

  it('resolveToolConcurrency: flag, then env, then fallback; bad values warn', () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    expect(resolveToolConcurrency({}, 2, warn)).toBe(2);
    expect(resolveToolConcurrency({ env: '4' }, 2, warn)).toBe(4);
    expect(resolveToolConcurrency({ flag: '1', env: '4' }, 2, warn)).toBe(1);
    expect(warnings).toEqual([]);
    expect(resolveToolConcurrency({ flag: '-1', env: 'x' }, 2, warn)).toBe(2);
    expect(resolveToolConcurrency({ flag: '2.5' }, 2, warn)).toBe(2);
    expect(warnings).toHaveLength(3);
  });
});
