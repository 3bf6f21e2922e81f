/**
 * Adding one server to a client's JSON config without disturbing the rest:
 * other servers, other keys and comments are kept, and an existing sightline
 * entry is left as the user has it. A file that cannot be read as JSON(C) is
 * left untouched, with the entry to add by hand.
 */
import type { ClientConfig } from './clients.js';
import { SERVER_KEY } from './clients.js';
import { isObject, parseJsonc, renderJson, setIn, type FileChange } from './jsonc.js';

export function mergeServerEntry(existing: string | null, config: ClientConfig): FileChange {
  const { container, entry } = config;
  if (existing === null || existing.trim() === '') {
    return { action: 'create', content: renderJson({ [container]: { [SERVER_KEY]: entry } }), note: `adds server "${SERVER_KEY}"` };
  }
  const byHand = `add "${SERVER_KEY}": ${JSON.stringify(entry)} under "${container}" by hand`;
  const parsed = parseJsonc(existing);
  if ('error' in parsed) return { action: 'skip', note: `${parsed.error}, left untouched; ${byHand}` };
  const doc = parsed.value;
  if (!isObject(doc) || (doc[container] !== undefined && !isObject(doc[container]))) {
    return { action: 'skip', note: `${isObject(doc) ? `"${container}" is` : 'the file is'} not an object, left untouched; ${byHand}` };
  }
  const servers = (doc[container] ?? {}) as Record<string, unknown>;
  if (servers[SERVER_KEY] !== undefined) return { action: 'keep', note: `already has a "${SERVER_KEY}" server, kept as it is` };
  const others = Object.keys(servers).length;
  return {
    action: 'update',
    content: setIn(existing, [container, SERVER_KEY], entry),
    note: `adds server "${SERVER_KEY}", keeps ${others} other${others === 1 ? '' : 's'} and any comments`,
  };
}
