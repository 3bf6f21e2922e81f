/** Argument schemas the memory tools share. */
import { z } from 'zod';
import { KINDS, MEMORY_FIELDS } from '../../memory/index.js';
import { positiveInt, text } from './args.js';

const says = (message: string) => ({ error: message });

export const memoryKeyArg = () => text('key', '"memory:backlog/item-7"').describe('A memory record key, memory:<topic>/<id>.');

export const anyKeyArg = () =>
  text('key', '"memory:backlog/item-7"').describe('A full key: memory:<topic>/<id>, file:<path> or symbol:<path>#<name>.');

export const fencingTokenArg = () => positiveInt('fencing_token', 12).describe('The token claim returned; required while the record is claimed.');

/** The token of a claim the caller holds (renew, release): required. */
export const heldTokenArg = () => positiveInt('fencing_token', 12).unwrap().describe('The token claim returned.');

export function linkMap(name: string) {
  const message = `${name} must map a relation to target keys, e.g. {"about": ["file:src/a.ts", "symbol:src/a.ts#parse"]}`;
  return z.record(z.string(says(message)), z.array(z.string(says(message)), says(message)), says(message)).optional();
}

export const fieldsArg = () =>
  z
    .record(z.string(), z.string(says('each field value must be a string')), says(`fields must map field names (${MEMORY_FIELDS.join(', ')}) to strings`))
    .optional()
    .describe(`Fields to set, last writer wins: ${MEMORY_FIELDS.join(', ')}.`);

export const kindArg = () =>
  z.string(says(`kind must be one of ${KINDS.join(', ')}`)).optional().describe(`${KINDS.join(', ')} (default note), set when the record is created.`);
