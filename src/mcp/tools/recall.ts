import { maxTokens } from './args.js';
import { anyKeyArg } from './memory-args.js';
import { defineTool } from './tool.js';

export const recallTool = defineTool({
  name: 'recall',
  title: 'Recall a record',
  description:
    'One record by its full key: a memory record\'s fields, tags, links and remaining life, with link staleness (stale, stale_links, and dangling_links for ' +
    'links whose target has no live record); a file or symbol\'s indexed fields. Every code link carries citation_status. A missing key returns exists: false.',
  guide: { when: 'read a memory record and whether the code it links to has moved', call: '{key: "memory:auth/session-ttl"}' },
  inputSchema: { key: anyKeyArg(), max_tokens: maxTokens('the record', 'a long body is cut, with body_truncated') },
  run: (a, { engine }) => engine.recall(a),
});
