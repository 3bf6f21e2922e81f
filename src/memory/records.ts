/**
 * Writing and reading memory records: remember, update, forget, recall. Each
 * write is one backend decision, so its fencing check (fence.ts) and the
 * change it admits commit together.
 */
import type { CitationProbe } from '../cite/index.js';
import { SightlineError, usageError } from '../errors/index.js';
import { checkFence } from './fence.js';
import { fitText } from './fit.js';
import { iso, type Memory } from './handle.js';
import { tickTime } from './hlc.js';
import { memoryKey, newId, parseKey, parseMemoryKey, checkName } from './keys.js';
import { evaluateLinks, parseLinks, type LinkMap } from './links.js';
import { checkFields, checkSeconds, checkTags, delta, emptyRecord, fieldValues, isLive, join, LIMITS, liveLinks, liveTags, type Patch } from './record.js';
import { DEFAULT_LAPSE_SECONDS } from './limits.js';
import { KINDS, type Kind, type RecordState, type StoredRecord } from './types.js';

export interface RememberInput {
  topic: string;
  id?: string;
  kind?: string;
  title?: string;
  body?: string;
  author?: string;
  provenance?: string;
  tags?: string[];
  add_links?: LinkMap;
  remove_links?: LinkMap;
  ttl_seconds?: number;
  fencing_token?: number;
}

export interface UpdateInput {
  key: string;
  fields?: Record<string, unknown>;
  add_tags?: string[];
  remove_tags?: string[];
  add_links?: LinkMap;
  remove_links?: LinkMap;
  fencing_token?: number;
}

export interface ForgetInput {
  key: string;
  lapse?: boolean;
  lapse_seconds?: number;
  fencing_token?: number;
}

const MAX_LAPSE_SECONDS = 86_400;

function checkKind(kind: string | undefined): Kind {
  const k = (kind ?? 'note').toLowerCase();
  if (!(KINDS as readonly string[]).includes(k)) throw usageError(`kind "${kind}" is not a memory kind; use one of ${KINDS.join(', ')}`);
  return k as Kind;
}

function patchOf(memory: Memory, p: { fields?: Record<string, unknown>; add_tags?: string[]; remove_tags?: string[]; add_links?: LinkMap; remove_links?: LinkMap }): Patch {
  return {
    fields: checkFields(p.fields ?? {}),
    addTags: checkTags(p.add_tags ?? []),
    removeTags: checkTags(p.remove_tags ?? []),
    addLinks: parseLinks(memory, p.add_links, true),
    removeLinks: parseLinks(memory, p.remove_links, false),
  };
}

function undecodable(key: string): SightlineError {
  return new SightlineError('corrupt_index', `${key} holds a value that cannot be decoded; retire it with forget (lapse or hard delete) and write it again`);
}

function checkLinkCount(record: StoredRecord): StoredRecord {
  if (liveLinks(record).length > LIMITS.links) throw usageError(`a record holds at most ${LIMITS.links} links`);
  return record;
}

/** Creates a record (no id, or an id with no live record) or merges into the live one. */
export async function remember(memory: Memory, input: RememberInput) {
  const kind = checkKind(input.kind);
  const topic = checkName('topic', input.topic);
  if (input.id !== undefined) checkName('id', input.id);
  const ttl = checkSeconds('ttl_seconds', input.ttl_seconds, LIMITS.maxTtlSeconds);
  const { title, body, author, provenance } = input;
  const fields = Object.fromEntries(Object.entries({ title, body, author, provenance }).filter(([, v]) => v !== undefined));
  const patch = patchOf(memory, { fields, add_tags: input.tags, add_links: input.add_links, remove_links: input.remove_links });
  const key = memoryKey(topic, input.id ?? newId(Date.now()));
  return memory.store.decide(key, (state, clock) => {
    const existing = isLive(state.record, clock.nowMs) ? state.record : undefined;
    if (state.undecodable && (state.expiresAtMs === null || state.expiresAtMs > clock.nowMs)) throw undecodable(key);
    if (existing) checkFence(key, state.claim, input.fencing_token);
    const tick = clock.tick();
    const expiresAtMs = ttl !== undefined ? clock.nowMs + ttl * 1000 : (existing?.expiresAtMs ?? null);
    const base = existing ?? emptyRecord(key, topic, key.slice(key.indexOf('/') + 1), kind, tick);
    const record = checkLinkCount(join(base, delta(base, patch, tick, expiresAtMs)));
    // A record that expired is replaced whole, its old claim with it.
    return { result: { status: 'ok' as const, key, created: !existing, kind: record.kind, expires_at: iso(record.expiresAtMs) }, put: record, remove: !existing && (state.record !== undefined || state.undecodable) };
  });
}

function liveOrMissing(state: RecordState, key: string, nowMs: number): StoredRecord {
  if (state.undecodable) throw undecodable(key);
  if (!isLive(state.record, nowMs)) throw new SightlineError('not_found', `no live memory record at ${key}; create it with remember`);
  return state.record;
}

/** Patches fields, tags and links at a fresh tick; the remaining TTL is kept. */
export async function update(memory: Memory, input: UpdateInput) {
  const { key } = parseMemoryKey(input.key, memory.root);
  const patch = patchOf(memory, input);
  const changes = Object.keys(patch.fields!).length + patch.addTags!.length + patch.removeTags!.length + patch.addLinks!.length + patch.removeLinks!.length;
  if (!changes) throw usageError('update needs fields, add_tags, remove_tags, add_links or remove_links');
  return memory.store.decide(key, (state, clock) => {
    const existing = liveOrMissing(state, key, clock.nowMs);
    checkFence(key, state.claim, input.fencing_token);
    const record = checkLinkCount(join(existing, delta(existing, patch, clock.tick(), existing.expiresAtMs)));
    return { result: { status: 'ok' as const, key, updated_at: iso(tickTime(record.updatedTick)), expires_at: iso(record.expiresAtMs) }, put: record };
  });
}

export interface ForgetResult {
  status: 'ok';
  key: string;
  existed: boolean;
  forgotten: boolean;
  /** The stored value could not be read (the forget did not need it). */
  undecodable: boolean;
  lapse?: boolean;
  /** The expiry in force after a lapse; null after a hard delete. */
  expires_at: string | null;
}

/** Hard delete, or a lapse that lets readers drain; neither reads the stored value. */
export async function forget(memory: Memory, input: ForgetInput) {
  const { key } = parseMemoryKey(input.key, memory.root);
  const lapseSeconds = checkSeconds('lapse_seconds', input.lapse_seconds, MAX_LAPSE_SECONDS) ?? DEFAULT_LAPSE_SECONDS;
  return memory.store.decide<ForgetResult>(key, (state, clock) => {
    const exists = (state.record !== undefined || state.undecodable) && (state.expiresAtMs === null || state.expiresAtMs > clock.nowMs);
    const base = { status: 'ok' as const, key, existed: exists, undecodable: state.undecodable };
    if (!exists) return { result: { ...base, forgotten: false, expires_at: null } };
    checkFence(key, state.claim, input.fencing_token);
    if (!input.lapse) return { result: { ...base, forgotten: true, lapse: false, expires_at: null }, remove: true };
    const lapseAt = clock.nowMs + lapseSeconds * 1000;
    // Never shorten a later expiry: the expiry in force is reported.
    const expiresAtMs = state.expiresAtMs !== null && state.expiresAtMs > lapseAt ? state.expiresAtMs : lapseAt;
    return { result: { ...base, forgotten: true, lapse: true, expires_at: iso(expiresAtMs) }, expiresAtMs };
  });
}

/** A record's fields, tags, links with their staleness, and remaining life; a big body is cut to max_tokens. */
/** What `recall` is asked: one record's key, and how many tokens its answer may take. */
export interface RecallInput {
  key: string;
  max_tokens?: number;
}

export async function recall(memory: Memory, input: RecallInput, probe: CitationProbe) {
  const target = parseKey(input.key, memory.root);
  const maxTokens = memory.budget(input.max_tokens);
  if (target.family !== 'memory') {
    const node = memory.code.node(target);
    if (!node) return { status: 'ok' as const, key: target.key, exists: false };
    return { status: 'ok' as const, key: target.key, exists: true, family: target.family, fields: node.fields, path: target.path, ...probe.check(target.path) };
  }
  const nowMs = Date.now();
  const state = await memory.store.read(target.key);
  if (state.undecodable) throw undecodable(target.key);
  if (!isLive(state.record, nowMs)) return { status: 'ok' as const, key: target.key, exists: false };
  const record = state.record;
  const links = await evaluateLinks(memory, liveLinks(record), probe, nowMs);
  const { body, ...fields } = fieldValues(record);
  return fitText(body ?? '', maxTokens, (text, cut) => ({
    status: 'ok' as const,
    key: record.key,
    exists: true,
    family: 'memory' as const,
    topic: record.topic,
    id: record.id,
    kind: record.kind,
    fields: body === undefined ? fields : { ...fields, body: text },
    ...(cut ? { body_truncated: true, body_chars: body!.length } : {}),
    tags: liveTags(record),
    ...links,
    created_at: iso(tickTime(record.createdTick)),
    updated_at: iso(tickTime(record.updatedTick)),
    expires_at: iso(record.expiresAtMs),
    ttl_remaining_seconds: record.expiresAtMs === null ? null : Math.max(0, Math.round((record.expiresAtMs - nowMs) / 1000)),
  }));
}
