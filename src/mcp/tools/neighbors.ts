import { MAX_NEIGHBOR_DEPTH, MAX_NEIGHBOR_NODES } from '../../memory/index.js';
import { maxTokens, optionalText, positiveInt } from './args.js';
import { memoryKeyArg } from './memory-args.js';
import { defineTool } from './tool.js';

export const neighborsTool = defineTool({
  name: 'neighbors',
  title: 'Linked memory',
  description:
    `Walk the links out of a memory record breadth-first (depth at most ${MAX_NEIGHBOR_DEPTH}, at most ${MAX_NEIGHBOR_NODES} nodes; truncated says the cap stopped it). ` +
    'Memory nodes carry their link staleness; a dangling link comes back with exists: false; code nodes carry citation_status.',
  guide: { when: 'explore the decisions and code linked to a memory record', call: '{key: "memory:auth/session-ttl", depth: 2}' },
  inputSchema: {
    key: memoryKeyArg(),
    relation: optionalText('relation', '"about"').describe('Follow only links of this relation.'),
    depth: positiveInt('depth', 2).describe(`Hops (default 1, at most ${MAX_NEIGHBOR_DEPTH}).`),
    max_nodes: positiveInt('max_nodes', 50).describe(`Stop after this many nodes (default 50, at most ${MAX_NEIGHBOR_NODES}).`),
    max_tokens: maxTokens('the walk', 'nodes past it are dropped and truncated is set'),
  },
  run: (a, { engine }) => engine.neighbors(a),
});
