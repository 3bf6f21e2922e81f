/**
 * Keys name what memory can point at: `memory:<topic>/<id>`, `file:<path>`
 * and `symbol:<path>#<qualified name>`. Paths are confined to the repository
 * (resolveInside), so a link can never name a file outside it.
 */
import { SightlineError, usageError } from '../errors/index.js';
import { PathEscapeError, resolveInside } from '../walk/index.js';

export type Target =
  | { family: 'memory'; key: string; topic: string; id: string }
  | { family: 'file'; key: string; path: string }
  | { family: 'symbol'; key: string; path: string; name: string };

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function checkName(what: 'topic' | 'id', value: string): string {
  if (!NAME.test(value)) throw usageError(`${what} "${value}" must be 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit`);
  return value;
}

export function memoryKey(topic: string, id: string): string {
  return `memory:${checkName('topic', topic)}/${checkName('id', id)}`;
}

/** A fresh id that sorts by creation time. */
export function newId(nowMs: number): string {
  // The global Web Crypto, loaded on first use: importing node:crypto cost every verb ~10 ms at start.
  return `${nowMs.toString(36)}-${Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString('hex')}`;
}

function inside(root: string, p: string, key: string): string {
  try {
    return resolveInside(root, p);
  } catch (err) {
    if (err instanceof PathEscapeError) throw new SightlineError('path_escape', `link target ${key} is outside the repository; give a path relative to ${root}`);
    throw err;
  }
}

/** Parses and normalises a key; paths are resolved inside `root`. */
export function parseKey(key: string, root: string): Target {
  const colon = key.indexOf(':');
  const family = colon > 0 ? key.slice(0, colon) : '';
  const rest = key.slice(colon + 1);
  if (family === 'memory') {
    const [topic = '', id = '', extra] = rest.split('/');
    if (extra !== undefined || !topic || !id) throw usageError(`key ${key} must look like memory:<topic>/<id>`);
    return { family, key: memoryKey(topic, id), topic, id };
  }
  if (family === 'file' && rest) {
    const path = inside(root, rest, key);
    if (path) return { family, key: `file:${path}`, path };
  }
  if (family === 'symbol') {
    const hash = rest.lastIndexOf('#');
    if (hash > 0 && hash < rest.length - 1) {
      const path = inside(root, rest.slice(0, hash), key);
      const name = rest.slice(hash + 1);
      return { family, key: `symbol:${path}#${name}`, path, name };
    }
  }
  throw usageError(`key ${key} must be memory:<topic>/<id>, file:<path> or symbol:<path>#<name>`);
}

/** A memory key, or a refusal naming why (claims and writes are for memory records only). */
export function parseMemoryKey(key: string, root: string): Extract<Target, { family: 'memory' }> {
  const target = parseKey(key, root);
  if (target.family !== 'memory') throw usageError(`${key} is a ${target.family} record, which comes from the code index; only memory records (memory:<topic>/<id>) can be written or claimed`);
  return target;
}

export function linkId(relation: string, target: string): string {
  return `${relation}\u0000${target}`;
}
