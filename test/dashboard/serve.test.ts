/**
 * The dashboard beside MCP: `serve --transport http` serves the page at / on
 * the MCP port, and its usage view counts the agents' calls (the ledger) and
 * reads back serve's own tool log. Plus the tool log's reader on its own:
 * a torn line, a missing file. No browser here: plain HTTP.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarizeToolLog } from '../../src/web/index.js';
import { startDashboard } from '../../bench/dashboard-browser.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { call, connectNetwork, rawRequest, startNetworkServer, stop, type Connected, type NetworkServer } from '../mcp/harness.js';
import { DASHBOARD_FILES, toolLog } from './fixture.js';

let root: string;
let home: string;
let logFile: string;
let server: NetworkServer;
let agent: Connected;

beforeAll(async () => {
  root = makeRepo(DASHBOARD_FILES);
  home = tempDir('sightline-home-');
  logFile = path.join(home, 'serve.ndjson');
  expect(runCli(['index', '--repo', root], { SIGHTLINE_HOME: home }).code).toBe(0);
  server = await startNetworkServer('http', ['--repo', root, '--no-watch', '--log-file', logFile], { SIGHTLINE_HOME: home });
  agent = await connectNetwork(server);
});

afterAll(async () => {
  await agent?.close();
  if (server) await stop(server);
  removeDir(root);
  removeDir(home);
});

const origin = () => server.url.origin;
const bearer = () => ({ authorization: `Bearer ${server.token}` });

describe('serve --transport http serves the dashboard too', () => {
  it('prints the dashboard URL with the token in its fragment, and serves the page at /', async () => {
    expect(server.stderr()).toContain(`Dashboard: ${origin()}/#token=${server.token}`);
    const page = await fetch(`${origin()}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(`${origin()}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(html).not.toMatch(/https?:\/\//); // nothing from a CDN
    // Paths are looked up among the built files, never joined onto a folder: dot segments lead nowhere.
    for (const p of ['/assets/../../package.json', '/assets/..%2f..%2fpackage.json', '/assets/%2e%2e/%2e%2e/package.json']) {
      const res = await rawRequest(server.url, { path: p, headers: { host: server.url.host } });
      expect([401, 404]).toContain(res.status);
      expect(await res.body).not.toContain('"name": "sightline"');
    }
  });

  it('keeps the MCP endpoint behind its token, and the API behind the token or a session', async () => {
    expect((await fetch(`${origin()}/mcp`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${origin()}/api/repositories`)).status).toBe(401);
    const repos = await fetch(`${origin()}/api/repositories`, { headers: bearer() });
    expect(await repos.json()).toMatchObject({ status: 'ok', workspace: null, repositories: [{ id: path.basename(root), root }] });
    const signIn = await fetch(`${origin()}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: server.token }) });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^sightline_[0-9a-f]{12}=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    expect((await fetch(`${origin()}/api/health`, { headers: { cookie: cookie.split(';')[0]! } })).status).toBe(200);
    const bad = await fetch(`${origin()}/api/file?path=../outside.ts`, { headers: bearer() });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/outside|escape|\.\./i);
  });

  it('counts the agents\' calls in the usage view, from the ledger and the tool log, but not its own', async () => {
    await call(agent.client, 'search', { query: 'hashToken' });
    await call(agent.client, 'context', { task: 'rotate the session token hash' });
    for (const view of ['health', 'contents', 'overview']) expect((await fetch(`${origin()}/api/${view}`, { headers: bearer() })).status).toBe(200);
    const usage = await (await fetch(`${origin()}/api/usage`, { headers: bearer() })).json();
    expect(usage.ledger.calls).toBe(2);
    expect(Object.keys(usage.ledger.tools).sort()).toEqual(['context', 'search']);
    expect(usage.log.file).toBe(logFile);
    expect(usage.log.calls).toBe(2);
    expect(usage.log.reads_replaced_tokens).toBe(usage.ledger.reads_replaced_tokens);
  });
});

describe('the dashboard verb', () => {
  it('prints its URL as one JSON object with --json, on stdout', async () => {
    const dashboard = await startDashboard(['--repo', root, '--no-watch', '--json'], { SIGHTLINE_HOME: home });
    try {
      const answer = JSON.parse(dashboard.stdout());
      expect(answer).toEqual({ status: 'ok', url: dashboard.url.href, repo: root });
      expect(dashboard.stderr()).toContain(`dashboard on ${dashboard.url.origin}/ for ${root}`);
      expect(dashboard.stderr()).not.toContain(dashboard.token);
      const mcp = await fetch(`${dashboard.url.origin}/mcp`, { headers: { authorization: `Bearer ${dashboard.token}` } });
      expect(mcp.status).toBe(404); // no MCP endpoint on its own
      expect((await mcp.json()).error.message).toMatch(/the dashboard is at \//);
    } finally {
      await dashboard.stop();
    }
    expect(dashboard.proc.exitCode).toBe(143);
  });

  it('has --help with examples, and refuses a bind beyond loopback without --allow-remote (exit 2)', () => {
    expect(runCli(['dashboard', '--help']).stdout).toMatch(/Examples:\n\s+\$ sightline dashboard/);
    const remote = runCli(['dashboard', '--repo', root, '--host', '0.0.0.0', '--port', '0'], { SIGHTLINE_HOME: home });
    expect(remote.code).toBe(2);
    expect(remote.stderr).toMatch(/--allow-remote/);
  });
});

describe('the tool log reader', () => {
  it('sums answers and errors per bucket and tool, skipping a torn last line', () => {
    const dir = tempDir();
    const file = path.join(dir, 'log.ndjson');
    fs.writeFileSync(file, toolLog() + '{"ts":"2026-');
    const s = summarizeToolLog(file);
    expect(s).toMatchObject({ calls: 4, errors: 1, tokens_sent: 2310, reads_replaced_tokens: 5200, net_saved_tokens: 2890, unreadable_lines: 1 });
    expect(s.buckets.reduce((n, b) => n + b.calls, 0)).toBe(4);
    expect(s.slowest.map((c) => c.tool)).toEqual(['context', 'search', 'outline', 'read']);
    expect(s.by_tool.read).toEqual({ calls: 1, errors: 1, tokens_sent: 0, reads_replaced_tokens: 0 });
    removeDir(dir);
  });

  it('says why there is nothing to show', () => {
    expect(summarizeToolLog(undefined).note).toMatch(/no tool log/);
    expect(summarizeToolLog('/nonexistent/log.ndjson').note).toMatch(/cannot read the tool log: ENOENT/);
  });
});
