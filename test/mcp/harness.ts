/**
 * Real servers and real clients for the MCP tests: `sightline serve` from
 * dist/ as a child process, and the SDK's own Client over stdio, Streamable
 * HTTP or SSE. Network servers listen on port 0; the bound URL and the token
 * are read from the banner on stderr.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';

export type Transport = 'stdio' | 'http' | 'sse';
export type NetworkTransport = Exclude<Transport, 'stdio'>;

export const ENDPOINT: Record<NetworkTransport, string> = { http: '/mcp', sse: '/sse' };

/** A child process with its output collected as it arrives. */
export interface Child {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or the signal that ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv, stdin: 'pipe' | 'ignore' = 'ignore'): Child {
  const proc = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: [stdin, 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  return { proc, stdout: () => out, stderr: () => err, exited };
}

/** Waits until `test` passes on the child's stderr, or fails with what it printed. */
export async function waitForStderr(child: Child, test: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = child.stderr().match(test);
    if (m) return m;
    if (child.proc.exitCode !== null) throw new Error(`server exited ${child.proc.exitCode} before printing ${test}:\n${child.stderr()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${test}; stderr so far:\n${child.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface NetworkServer extends Child {
  url: URL;
  /** The token clients send: the minted one from the banner, or the pinned one (none with --tokens). */
  token: string;
}

export async function startNetworkServer(transport: NetworkTransport, args: string[], env: NodeJS.ProcessEnv): Promise<NetworkServer> {
  const child = spawnCli(['serve', '--transport', transport, '--port', '0', ...args], env);
  await waitForStderr(child, /Clients must send.*\n/);
  const url = new URL(child.stderr().match(/on (http:\/\/\S+)/)![1]!);
  const minted = child.stderr().match(/Authorization: Bearer ([A-Za-z0-9_-]{43})\n/);
  return { ...child, url, token: minted?.[1] ?? env.SIGHTLINE_MCP_TOKEN?.trim() ?? '' }; // '' with --tokens: each client brings its caller's
}

export async function stop(child: Child): Promise<void> {
  if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
  await child.exited;
}

export interface Connected {
  client: Client;
  close: () => Promise<void>;
  /** The stdio server's stderr so far (stdio only). */
  stderr: () => string;
}

export async function connectStdio(args: string[], env: Record<string, string>): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', ...args],
    env: { PATH: process.env.PATH!, ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr!.on('data', (d) => (err += d));
  const client = new Client({ name: 'sightline-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, close: () => client.close(), stderr: () => err };
}

export async function connectNetwork(server: NetworkServer): Promise<Connected> {
  const requestInit = { headers: { Authorization: `Bearer ${server.token}` } };
  const transport =
    server.url.pathname === ENDPOINT.sse
      ? new SSEClientTransport(server.url, { requestInit })
      : new StreamableHTTPClientTransport(server.url, { requestInit });
  const client = new Client({ name: 'sightline-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, close: () => client.close(), stderr: server.stderr };
}

/** Calls a tool and returns its answer, the one JSON text it sent, failing with the text when it is an error. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  return JSON.parse((await callRaw(client, name, args)).text);
}

/** Calls a tool and returns the text it sent, checking the answer came once: one text block, no structuredContent copy. */
export async function callRaw(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ text: string }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  expect(r.structuredContent).toBeUndefined();
  expect(r.content).toEqual([{ type: 'text', text: expect.any(String) }]);
  return { text: (r.content[0] as { text: string }).text };
}

/** Calls a tool that must fail, and returns its one-sentence error. */
export async function callError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError, `${name} ${JSON.stringify(args)} should fail: ${JSON.stringify(r.content)}`).toBe(true);
  return (r.content[0] as { text: string }).text;
}

/** Polls index_status until the background index has completed. */
export async function waitForIndex(client: Client, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { job } = await call(client, 'index_status');
    if (job.status === 'completed') return;
    if (job.status === 'failed') throw new Error(`index failed: ${job.error}`);
    if (Date.now() > deadline) throw new Error(`index still ${job.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One raw HTTP request; resolves on the response head, so it also works on event streams. */
export function rawRequest(
  url: URL,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method: options.method ?? 'GET', path: options.path ?? url.pathname, headers: options.headers },
      (res) => {
        const body = new Promise<string>((done) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => done(text));
          res.on('close', () => done(text));
        });
        resolve({ status: res.statusCode!, headers: res.headers, body });
        // An event stream never ends by itself: read its head, then hang up.
        if (String(res.headers['content-type']).startsWith('text/event-stream')) setTimeout(() => req.destroy(), 50);
      },
    );
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    req.end(options.body);
  });
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

export interface ServedRepo {
  readonly root: string;
  readonly home: string;
  readonly conn: Connected;
}

/**
 * A test file's repository of `files`, served over stdio (`args` after
 * `--repo`, `env` beside SIGHTLINE_HOME) and indexed before its tests
 * (`setup` runs on the root first); closed and removed after them. Read the
 * fields inside tests.
 */
export function useServedRepo(
  files: Record<string, string | Buffer>,
  options: { args?: string[]; env?: Record<string, string>; setup?: (root: string) => void } = {},
): ServedRepo {
  const served = {} as { root: string; home: string; conn: Connected };
  beforeAll(async () => {
    served.root = makeRepo(files);
    served.home = tempDir('sightline-home-');
    options.setup?.(served.root);
    served.conn = await connectStdio(['--repo', served.root, ...(options.args ?? [])], { SIGHTLINE_HOME: served.home, ...options.env });
    await waitForIndex(served.conn.client, 60_000);
  });
  afterAll(async () => {
    await served.conn?.close();
    removeDir(served.root);
    removeDir(served.home);
  });
  return served;
}
