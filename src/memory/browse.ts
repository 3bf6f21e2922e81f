/**
 * Reading memory in bulk: topics, a bounded walk over links, and paged scans.
 * Scans do not evaluate staleness (stale fields are null, "not evaluated");
 * recall a key for that. A continuation token names its scope and the index
 * it was cut from, so it is refused under another scope or a changed index.
 */
import type { CitationProbe } from '../cite/index.js';
import { usageError } from '../errors/index.js';
import { fitList } from './fit.js';
import { iso, type Memory } from './handle.js';
import { checkName, parseKey } from './keys.js';
import { evaluateLinks, targetsOf } from './links.js';
import { fieldValues, isLive, liveLinks, liveTags } from './record.js';
import type { StoredRecord } from './types.js';
import { MAX_NEIGHBOR_DEPTH, MAX_NEIGHBOR_NODES, MAX_PAGE_SIZE, SCAN_SCOPES } from './limits.js';

export type ScanScope = (typeof SCAN_SCOPES)[number];
const DEFAULT_PAGE_SIZE = 100;

export async function listTopics(memory: Memory) {
  const topics = await memory.store.topics(Date.now());
  return { status: 'ok' as const, topics, total: topics.reduce((n, t) => n + t.count, 0) };
}

function summary(r: StoredRecord) {
  return { key: r.key, topic: r.topic, id: r.id, kind: r.kind, title: r.fields.title?.value ?? null, tags: liveTags(r), expires_at: iso(r.expiresAtMs) };
}

export interface NeighborsInput {
  key: string;
  relation?: string;
  depth?: number;
  max_nodes?: number;
  max_tokens?: number;
}

/** Breadth-first over links from a memory record; a dangling edge is returned with exists: false. */
export async function neighbors(memory: Memory, input: NeighborsInput, probe: CitationProbe) {
  const seed = parseKey(input.key, memory.root);
  const depth = Math.min(input.depth ?? 1, MAX_NEIGHBOR_DEPTH);
  const maxNodes = Math.min(input.max_nodes ?? 50, MAX_NEIGHBOR_NODES);
  const nowMs = Date.now();
  const start = seed.family === 'memory' ? (await memory.store.readMany([seed.key], nowMs)).get(seed.key) : undefined;
  if (!isLive(start, nowMs)) return { status: 'ok' as const, key: seed.key, exists: false };
  const seen = new Set([seed.key]);
  const nodes: object[] = [];
  let frontier = [start];
  let truncated = false;
  for (let level = 1; level <= depth && frontier.length && !truncated; level++) {
    const edges = frontier.flatMap((r) => targetsOf(r, input.relation).map((l) => ({ from: r.key, relation: l.relation, target: l.target }))).filter((e) => !seen.has(e.target));
    const records = await memory.store.readMany(edges.map((e) => e.target).filter((t) => t.startsWith('memory:')), nowMs);
    const next: StoredRecord[] = [];
    for (const e of edges) {
      if (seen.has(e.target)) continue;
      if (nodes.length >= maxNodes) {
        truncated = true;
        break;
      }
      seen.add(e.target);
      const record = records.get(e.target);
      const base = { depth: level, from: e.from, relation: e.relation };
      if (record) {
        next.push(record);
        nodes.push({ ...base, ...summary(record), exists: true, ...(await staleness(memory, record, probe, nowMs)) });
      } else if (e.target.startsWith('memory:')) {
        nodes.push({ ...base, key: e.target, exists: false });
      } else {
        const target = parseKey(e.target, memory.root);
        const node = target.family === 'memory' ? undefined : memory.code.node(target);
        nodes.push({ ...base, key: e.target, exists: node !== undefined, ...(target.family === 'memory' ? {} : { path: target.path, ...probe.check(target.path) }) });
      }
    }
    frontier = next;
  }
  // Unvisited links past the last level walked also mean the cap stopped the walk.
  const { value, cut } = fitList(nodes, memory.budget(input.max_tokens), (kept) => ({ status: 'ok' as const, key: seed.key, exists: true, nodes: kept, truncated: truncated || kept.length < nodes.length }));
  return cut ? { ...value, cut_to_budget: cut } : value;
}

async function staleness(memory: Memory, record: StoredRecord, probe: CitationProbe, nowMs: number) {
  const { stale, stale_links, dangling_links } = await evaluateLinks(memory, liveLinks(record), probe, nowMs);
  return { stale, stale_links, dangling_links };
}

export interface ScanInput {
  scope: string;
  topic?: string;
  path_prefix?: string;
  continuation_token?: string;
  page_size?: number;
  max_tokens?: number;
}

interface Cursor {
  scope: ScanScope;
  topic?: string;
  prefix?: string;
  after: string;
  /** The index version the page was cut from (code scopes only). */
  version?: string;
}

const encode = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(token: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Cursor;
    if (typeof c.after === 'string' && typeof c.scope === 'string') return c;
  } catch {
    // fall through to the refusal
  }
  throw usageError('continuation_token is not one this server issued; start the scan again without it');
}

/** Pages of files, symbols, memory or one topic's memory, in key order. */
export async function scan(memory: Memory, input: ScanInput) {
  const indexVersion = memory.code.version();
  const scope = input.scope.toLowerCase() as ScanScope;
  if (!SCAN_SCOPES.includes(scope)) throw usageError(`scope "${input.scope}" is not one of ${SCAN_SCOPES.join(', ')}`);
  if (input.path_prefix !== undefined && scope !== 'files') throw usageError('path_prefix narrows a files scan only');
  const topic = scope === 'memory_topic' ? checkName('topic', input.topic ?? '') : undefined;
  const prefix = input.path_prefix === undefined ? undefined : parseKey(`file:${input.path_prefix}`, memory.root).key.slice('file:'.length);
  const code = scope === 'files' || scope === 'symbols';
  const want: Cursor = { scope, topic, prefix, after: '', version: code ? indexVersion : undefined };
  const cursor = input.continuation_token ? decodeCursor(input.continuation_token) : want;
  if (cursor.scope !== scope || cursor.topic !== topic || cursor.prefix !== prefix) throw usageError(`continuation_token belongs to a ${cursor.scope} scan with other arguments; pass it with the arguments of the scan that issued it`);
  if (code && cursor.version !== indexVersion) throw usageError('continuation_token was cut from an index that has changed since; start the scan again without it');
  const pageSize = Math.min(input.page_size && input.page_size > 0 ? input.page_size : DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const nowMs = Date.now();
  const items: { key: string }[] = code
    ? memory.code.scan(scope, cursor.after, pageSize + 1, prefix)
    : (await memory.store.page({ topic, after: cursor.after, limit: pageSize + 1, nowMs })).map((r) => ({ ...summary(r), fields: fieldValues(r), stale: null, stale_links: null, dangling_links: null }));
  const page = items.slice(0, pageSize);
  const { value, cut } = fitList(page, memory.budget(input.max_tokens), (kept) => {
    const more = kept.length < items.length;
    const last = kept[kept.length - 1];
    return { status: 'ok' as const, scope, items: kept, continuation_token: more && last ? encode({ ...cursor, after: last.key }) : null };
  });
  return cut ? { ...value, cut_to_budget: cut } : value;
}
