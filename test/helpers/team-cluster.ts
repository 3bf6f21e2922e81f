/**
 * A team on one PostgreSQL: `sightline serve --transport http --store URL`
 * processes, each with its own local index home (as on separate machines),
 * and agents that are real MCP SDK clients over Streamable HTTP draining one
 * backlog through claims. No vitest here, so the cluster test and
 * bench/team-bench.ts share it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface TeamServer {
  proc: ChildProcess;
  url: URL;
  token: string;
  stderr: () => string;
  exited: Promise<unknown>;
}

export interface TeamServerOptions {
  /** The built CLI (dist/src/cli/main.js). */
  cli: string;
  repo: string;
  home: string;
  /** The team database; omitted: SQLite only. */
  store?: string;
  /** Pass the store as SIGHTLINE_DATABASE_URL instead of --store. */
  storeByEnv?: boolean;
  env?: NodeJS.ProcessEnv;
  /** With a store: the caller token agents send (default: teamToken's). */
  token?: string;
}

const granted = new Map<string, string>();

/** The token of caller `name` with write on every repository in the team database at `store`, granted once per process. */
export function teamToken(cli: string, store: string, name = 'agents'): string {
  const id = `${store}\u0000${name}`;
  let token = granted.get(id);
  if (!token) {
    const out = execFileSync(process.execPath, [cli, 'team', 'grant', '--caller', name, '--repo', '*', '--access', 'write', '--json', '--store', store], { encoding: 'utf8' });
    token = (JSON.parse(out) as { token?: string }).token;
    if (!token) throw new Error(`caller ${name} already existed in ${store}: its token was shown when it was made`);
    granted.set(id, token);
  }
  return token;
}

/** Starts a server; with a store its callers come from the team database (teamToken), else from the single token it prints. */
export async function startTeamServer(o: TeamServerOptions): Promise<TeamServer> {
  const callerToken = o.store ? (o.token ?? teamToken(o.cli, o.store)) : undefined; // granted before the server first reads callers
  const args = [o.cli, 'serve', '--transport', 'http', '--port', '0', '--repo', o.repo, '--enable-writes', '--no-watch'];
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, SIGHTLINE_HOME: o.home, SIGHTLINE_EMBEDDER: 'none', SIGHTLINE_TEAM_REPO: 'team-repo', ...o.env };
  if (o.store && o.storeByEnv) env.SIGHTLINE_DATABASE_URL = o.store;
  else if (o.store) args.push('--store', o.store);
  const proc = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const banner = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 60_000);
    proc.stderr!.on('data', () => {
      const m = /on (http:\/\/\S+)[\s\S]*Authorization: Bearer (\S+)\n/.exec(stderr);
      if (m && callerToken) m[2] = callerToken;
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited ${code}: ${stderr}`));
    });
  });
  return { proc, url: new URL(banner[1]!), token: banner[2]!, stderr: () => stderr, exited };
}

export async function connectAgent(server: TeamServer, name: string): Promise<Client> {
  const client = new Client({ name, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(server.url, { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } }));
  return client;
}

/** A tool's answer, or its error sentence as `{ error }` (a refusal is an answer the agent acts on). */
export async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r.content[0] as { text: string }).text;
  return r.isError ? { error: text } : JSON.parse(text);
}

export const TOPIC = 'backlog';
export const itemKey = (i: number) => `memory:${TOPIC}/item-${String(i).padStart(3, '0')}`;

export async function seedBacklog(client: Client, items: number): Promise<void> {
  for (let i = 0; i < items; i++) {
    const r = await tool(client, 'remember', { topic: TOPIC, id: itemKey(i).split('/')[1], body: 'todo', tags: ['todo'] });
    if (r.error) throw new Error(`seeding failed: ${r.error}`);
  }
}

/** Keys of the backlog still tagged todo, through every page of a scan. */
export async function todoKeys(client: Client): Promise<string[]> {
  const keys: string[] = [];
  let continuation: string | undefined;
  do {
    const page = await tool(client, 'scan', { scope: 'memory_topic', topic: TOPIC, page_size: 500, max_tokens: 20_000, ...(continuation ? { continuation_token: continuation } : {}) });
    if (page.error) throw new Error(`scan failed: ${page.error}`);
    for (const item of page.items as { key: string; tags: string[] }[]) if (item.tags.includes('todo')) keys.push(item.key);
    continuation = page.continuation_token ?? undefined;
  } while (continuation);
  return keys;
}

export type AgentEvent =
  | { event: 'granted'; me: string; key: string; token: number; grantedAtMs: number; leaseExpiresAtMs: number }
  | { event: 'released'; me: string; key: string; token: number; releaseSentAtMs: number }
  | { event: 'processed'; me: string; key: string; token: number; author: string }
  | { event: 'refused'; me: string; key: string; token: number; reason: string }
  | { event: 'after_release'; me: string; key: string; token: number; reason: string | null };

export interface AgentOptions {
  leaseSeconds: number;
  /** Chance of outliving the lease mid-item, so another agent may take it over. */
  stallChance?: number;
  /** Stops the agent after this item is granted, holding the claim (a server about to die). */
  holdForever?: (key: string) => boolean;
  /** True once the agent's server was stopped on purpose: a failed call then ends the agent instead of failing it. */
  serverGone?: () => boolean;
  /** Called on every claim round trip with its latency (the benchmark's figures). */
  onClaim?: (ms: number) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const reasonOf = (error: string) => /^(\w+):/.exec(error)?.[1] ?? error;

/**
 * Drains the backlog: claim an item, check it is still todo, write under the
 * token, release, then try one write under the released token (which must
 * be refused). Ends when nothing is left, or when its server has gone.
 */
export async function drain(client: Client, me: string, o: AgentOptions, events: AgentEvent[]): Promise<'done' | 'holding' | 'server_gone'> {
  try {
    for (;;) {
      const todo = await todoKeys(client);
      if (!todo.length) return 'done';
      let granted = 0;
      for (const key of todo.sort(() => Math.random() - 0.5)) {
        const started = performance.now();
        const got = await tool(client, 'claim', { key, owner: me, lease_seconds: o.leaseSeconds });
        o.onClaim?.(performance.now() - started);
        if (got.error) throw new Error(`claim failed: ${got.error}`);
        if (!got.granted) continue;
        granted++;
        const token = got.fencing_token as number;
        const leaseExpiresAtMs = Date.parse(got.lease_expires_at);
        events.push({ event: 'granted', me, key, token, grantedAtMs: leaseExpiresAtMs - got.lease_seconds * 1000, leaseExpiresAtMs });
        if (o.holdForever?.(key)) return 'holding';
        const seen = await tool(client, 'recall', { key });
        if (seen.fields?.body === 'todo') {
          const first = await tool(client, 'update', { key, fields: { author: me }, fencing_token: token });
          if (Math.random() < (o.stallChance ?? 0)) await sleep(o.leaseSeconds * 1000 + 300);
          const done = first.error ?? (await tool(client, 'update', { key, fields: { body: `done:${me}` }, remove_tags: ['todo'], add_tags: ['done'], fencing_token: token })).error;
          if (done) events.push({ event: 'refused', me, key, token, reason: reasonOf(done) });
          else events.push({ event: 'processed', me, key, token, author: (await tool(client, 'recall', { key })).fields.author });
        }
        events.push({ event: 'released', me, key, token, releaseSentAtMs: Date.now() });
        await tool(client, 'release_claim', { key, fencing_token: token });
        const late = await tool(client, 'update', { key, fields: { provenance: 'after release' }, fencing_token: token });
        events.push({ event: 'after_release', me, key, token, reason: late.error ? reasonOf(late.error) : null });
      }
      if (!granted) await sleep(100); // everything left is held by others: wait for a release or a lapse
    }
  } catch (err) {
    if (o.serverGone?.()) return 'server_gone';
    throw err;
  }
}
