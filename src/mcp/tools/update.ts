import { update } from '../../memory/index.js';
import { stringList } from './args.js';
import { fencingTokenArg, fieldsArg, linkMap, memoryKeyArg } from './memory-args.js';
import { defineTool } from './tool.js';

export const updateTool = defineTool({
  name: 'update',
  title: 'Update memory',
  description:
    'Patch fields, tags and links of an existing memory record; each field is last-writer-wins at a fresh logical tick, so concurrent updates converge. ' +
    'The remaining TTL is kept. A claimed record needs the claim\'s fencing_token.',
  mutating: true,
  guide: { when: 'change one field or tag of a memory record without rewriting it', call: '{key: "memory:backlog/item-7", fields: {body: "done"}, fencing_token: 12}' },
  inputSchema: {
    key: memoryKeyArg(),
    fields: fieldsArg(),
    add_tags: stringList('add_tags', '["done"]').describe('Tags to add.'),
    remove_tags: stringList('remove_tags', '["todo"]').describe('Tags to remove.'),
    add_links: linkMap('add_links').describe('Relation → target keys to link.'),
    remove_links: linkMap('remove_links').describe('Relation → target keys to unlink.'),
    fencing_token: fencingTokenArg(),
  },
  run: (a, { engine }) => update(engine.memory, a),
});
