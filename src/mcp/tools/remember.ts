import { remember } from '../../memory/index.js';
import { optionalText, positiveInt, stringList, text } from './args.js';
import { fencingTokenArg, kindArg, linkMap } from './memory-args.js';
import { defineTool } from './tool.js';

export const rememberTool = defineTool({
  name: 'remember',
  title: 'Remember',
  description:
    'Create a memory record (decision, note or memory) under a topic, or merge into an existing one by id; fields are last-writer-wins. ' +
    'Link it to files (file:<path>), symbols (symbol:<path>#<name>) or other memory (memory:<topic>/<id>): a link to code goes stale when the code changes. ' +
    'A claimed record needs the claim\'s fencing_token.',
  mutating: true,
  guide: { when: 'keep a decision or finding for later sessions, linked to the code it is about', call: '{topic: "auth", kind: "decision", title: "Sessions expire after 1h", body: "...", add_links: {about: ["file:src/auth/session.ts"]}}' },
  inputSchema: {
    topic: text('topic', '"auth"').describe('The topic the record lives under.'),
    id: optionalText('id', '"session-ttl"').describe('Omit to create with a generated id; an existing id merges in place.'),
    kind: kindArg(),
    title: optionalText('title', '"Sessions expire after 1h"').describe('A one-line title.'),
    body: optionalText('body', '"Decided with security; see ADR-4"').describe('At most 64 KiB.'),
    author: optionalText('author', '"agent-7"').describe('Who wrote it.'),
    provenance: optionalText('provenance', '"PR #42"').describe('Where it came from.'),
    tags: stringList('tags', '["security"]').describe('Tags to add.'),
    add_links: linkMap('add_links').describe('Relation → target keys to link.'),
    remove_links: linkMap('remove_links').describe('Relation → target keys to unlink.'),
    ttl_seconds: positiveInt('ttl_seconds', 86400).describe('Expire after this many seconds (default durable).'),
    fencing_token: fencingTokenArg(),
  },
  run: (a, { engine }) => remember(engine.memory, a),
});
