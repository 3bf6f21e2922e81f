/**
 * Adding one server to a client's JSON config without disturbing the rest:
 * other servers, other keys and comments are kept, and an existing sightline
 * entry is left as the user has it — unless its command cannot be started
 * (an earlier init wrote a bare `sightline` that is not on PATH, or a path
 * that no longer exists): a client would fail to launch it, so it is replaced.
 * A file that cannot be read as JSON(C) is left untouched, with the entry to
 * add by hand.
 */
import type { ClientConfig } from './clients.js';
import { SERVER_KEY } from './clients.js';
import { isObject, parseJsonc, renderJson, setIn, type FileChange } from './jsonc.js';

/** Whether a client could start `command` (see command.ts's startable). */
export type Startable = (command: string) => boolean;

export function mergeServerEntry(existing: string | null, config: ClientConfig, startable: Startable = () => true): FileChange {
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
  const current = servers[SERVER_KEY];
  if (current !== undefined) {
    const command = isObject(current) && typeof current.command === 'string' ? current.command : null;
    if (command === null || startable(command)) return { action: 'keep', note: `already has a "${SERVER_KEY}" server, kept as it is` };
    return {
      action: 'update',
      content: setIn(existing, [container, SERVER_KEY], entry),
      note: `replaces the "${SERVER_KEY}" server, whose command "${command}" cannot be started (not on PATH, or gone)`,
    };
  }
  const others = Object.keys(servers).length;
  return {
    action: 'update',
    content: setIn(existing, [container, SERVER_KEY], entry),
    note: `adds server "${SERVER_KEY}", keeps ${others} other${others === 1 ? '' : 's'} and any comments`,
  };
}
