/**
 * Adding one server to a client's JSON config without disturbing the rest:
 * other servers and other keys are kept, and an existing sightline entry is
 * left as the user has it. A file that is not plain JSON (VS Code allows
 * comments) is skipped with the entry to add by hand, never rewritten.
 */
import type { ClientConfig } from './clients.js';
import { SERVER_KEY } from './clients.js';

export type ConfigAction = 'create' | 'update' | 'keep' | 'skip';

export interface MergedConfig {
  action: ConfigAction;
  /** The file's new text (for create and update). */
  content?: string;
  note: string;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function mergeServerEntry(existing: string | null, config: ClientConfig): MergedConfig {
  const { container, entry } = config;
  const render = (doc: unknown) => JSON.stringify(doc, null, 2) + '\n';
  if (existing === null || existing.trim() === '') {
    return { action: 'create', content: render({ [container]: { [SERVER_KEY]: entry } }), note: `adds server "${SERVER_KEY}"` };
  }
  const byHand = `add "${SERVER_KEY}": ${JSON.stringify(entry)} under "${container}" by hand`;
  let doc: unknown;
  try {
    doc = JSON.parse(existing);
  } catch {
    return { action: 'skip', note: `not plain JSON (comments?), left untouched; ${byHand}` };
  }
  if (!isObject(doc) || (doc[container] !== undefined && !isObject(doc[container]))) {
    return { action: 'skip', note: `"${container}" is not an object, left untouched; ${byHand}` };
  }
  const servers = (doc[container] ?? {}) as Record<string, unknown>;
  if (servers[SERVER_KEY] !== undefined) return { action: 'keep', note: `already has a "${SERVER_KEY}" server, kept as it is` };
  const others = Object.keys(servers).length;
  return {
    action: 'update',
    content: render({ ...doc, [container]: { ...servers, [SERVER_KEY]: entry } }),
    note: `adds server "${SERVER_KEY}", keeps ${others} other${others === 1 ? '' : 's'}`,
  };
}
