/**
 * A memory record as a state-based CRDT: each field, tag and link is a
 * last-writer-wins register stamped with a hybrid-logical tick, and two
 * versions of a record join by keeping, per register, the higher tick. Every
 * write is expressed as a delta joined into the stored record, so the SQLite
 * backend (which serialises writers) and a replicated one (which merges them)
 * reach the same state.
 */
import { refuseCredentialUrl, usageError } from '../errors/index.js';
import { byCodeUnit } from '../order.js';
import { linkId } from './keys.js';
import { MEMORY_FIELDS, type Kind, type LinkRegister, type MemoryField, type Register, type StoredRecord } from './types.js';

export const LIMITS = {
  bodyBytes: 64 * 1024,
  fieldChars: 1024,
  tags: 64,
  tagChars: 64,
  links: 256,
  maxTtlSeconds: 10 * 365 * 86_400,
} as const;

const RELATION = /^[a-z][a-z0-9_-]{0,63}$/;

function later<T extends { tick: number }>(a: T | undefined, b: T | undefined): T | undefined {
  if (!a) return b;
  if (!b) return a;
  return b.tick > a.tick ? b : a;
}

function joinMap<T extends { tick: number }>(a: Record<string, T>, b: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = later(out[k], v)!;
  return out;
}

const longer = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.max(a, b));

/** The join of two versions of one record: commutative, associative, idempotent. */
export function join(a: StoredRecord, b: StoredRecord): StoredRecord {
  const fields: StoredRecord['fields'] = { ...a.fields };
  for (const f of MEMORY_FIELDS) {
    const v = later(a.fields[f], b.fields[f]);
    if (v) fields[f] = v;
  }
  const first = a.createdTick <= b.createdTick ? a : b;
  return {
    ...first,
    fields,
    tags: joinMap(a.tags, b.tags),
    links: joinMap(a.links, b.links),
    updatedTick: Math.max(a.updatedTick, b.updatedTick),
    // The expiry of the later write stands (a TTL set last wins, durable included); a tie keeps the longer life.
    expiresAtMs: a.updatedTick !== b.updatedTick ? (a.updatedTick > b.updatedTick ? a : b).expiresAtMs : longer(a.expiresAtMs, b.expiresAtMs),
  };
}

export interface Patch {
  fields?: Partial<Record<MemoryField, string>>;
  addTags?: string[];
  removeTags?: string[];
  addLinks?: { relation: string; target: string; digest: string | null }[];
  removeLinks?: { relation: string; target: string }[];
}

/** A patch as a delta at one tick, to be joined into the stored record. */
export function delta(base: Pick<StoredRecord, 'key' | 'topic' | 'id' | 'kind' | 'createdTick'>, patch: Patch, tick: number, expiresAtMs: number | null): StoredRecord {
  const fields: StoredRecord['fields'] = {};
  for (const [f, value] of Object.entries(patch.fields ?? {})) fields[f as MemoryField] = { value, tick };
  const tags: Record<string, Register<boolean>> = {};
  for (const t of patch.removeTags ?? []) tags[t] = { value: false, tick };
  for (const t of patch.addTags ?? []) tags[t] = { value: true, tick };
  const links: Record<string, LinkRegister> = {};
  for (const l of patch.removeLinks ?? []) links[linkId(l.relation, l.target)] = { ...l, present: false, tick, digest: null };
  for (const l of patch.addLinks ?? []) links[linkId(l.relation, l.target)] = { ...l, present: true, tick };
  return { ...base, fields, tags, links, updatedTick: tick, expiresAtMs };
}

export function emptyRecord(key: string, topic: string, id: string, kind: Kind, tick: number): StoredRecord {
  // Never written yet (updatedTick 0), so the first delta's expiry stands.
  return { key, topic, id, kind, fields: {}, tags: {}, links: {}, createdTick: tick, updatedTick: 0, expiresAtMs: null };
}

export function isLive(record: StoredRecord | undefined, nowMs: number): record is StoredRecord {
  return record !== undefined && (record.expiresAtMs === null || record.expiresAtMs > nowMs);
}

export function liveTags(r: StoredRecord): string[] {
  return Object.entries(r.tags).filter(([, v]) => v.value).map(([t]) => t).sort();
}

export function liveLinks(r: StoredRecord): LinkRegister[] {
  return Object.values(r.links).filter((l) => l.present).sort((a, b) => byCodeUnit(a.relation, b.relation) || byCodeUnit(a.target, b.target));
}

export function fieldValues(r: StoredRecord): Partial<Record<MemoryField, string>> {
  const out: Partial<Record<MemoryField, string>> = {};
  for (const f of MEMORY_FIELDS) if (r.fields[f]) out[f] = r.fields[f]!.value;
  return out;
}

/** Field names matched case-insensitively; anything outside the memory family's set is refused, naming the set. */
export function checkFields(fields: Record<string, unknown>): Partial<Record<MemoryField, string>> {
  const out: Partial<Record<MemoryField, string>> = {};
  for (const [name, value] of Object.entries(fields)) {
    const field = MEMORY_FIELDS.find((f) => f === name.toLowerCase());
    if (!field) throw usageError(`field "${name}" is not a memory record field; the fields are ${MEMORY_FIELDS.join(', ')} (claims cannot be patched)`);
    if (typeof value !== 'string') throw usageError(`field ${field} must be a string`);
    const limit = field === 'body' ? LIMITS.bodyBytes : LIMITS.fieldChars;
    const size = field === 'body' ? Buffer.byteLength(value) : value.length;
    if (size > limit) throw usageError(`${field} is ${size} ${field === 'body' ? 'bytes' : 'characters'}, over the limit of ${limit}`);
    refuseCredentialUrl(value, field);
    out[field] = value;
  }
  return out;
}

export function checkTags(tags: string[]): string[] {
  if (tags.length > LIMITS.tags) throw usageError(`at most ${LIMITS.tags} tags per call`);
  for (const t of tags) {
    if (!t.trim() || t.length > LIMITS.tagChars) throw usageError(`tag "${t}" must be 1-${LIMITS.tagChars} characters`);
    refuseCredentialUrl(t, 'a tag');
  }
  return tags.map((t) => t.trim());
}

export function checkRelation(relation: string): string {
  if (!RELATION.test(relation)) throw usageError(`link relation "${relation}" must be 1-64 lowercase letters, digits, "_" or "-", starting with a letter`);
  return relation;
}

/** Seconds within 1..max, or a refusal naming the range. */
export function checkSeconds(name: string, value: number | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > max) throw usageError(`${name} must be a whole number of seconds from 1 to ${max}, not ${value}`);
  return value;
}
