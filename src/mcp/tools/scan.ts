import { MAX_PAGE_SIZE, scan, SCAN_SCOPES } from '../../memory/index.js';
import { maxTokens, oneOf, optionalText, positiveInt } from './args.js';
import { defineTool } from './tool.js';

export const scanTool = defineTool({
  name: 'scan',
  title: 'Scan in pages',
  description:
    'Page through files, symbols, all memory or one topic\'s memory in key order, with a continuation_token for the next page. Expired records never appear; ' +
    'staleness is not evaluated (stale fields are null): recall a key for it. A token from another scope, or from before the index changed, is refused.',
  guide: { when: 'walk every memory record of a topic, or every file, page by page', call: '{scope: "memory_topic", topic: "backlog"}' },
  inputSchema: {
    scope: oneOf('scope', SCAN_SCOPES).describe('What to page through: files, symbols, all memory, or one topic\'s memory.'),
    topic: optionalText('topic', '"backlog"').describe('The topic of a memory_topic scan.'),
    path_prefix: optionalText('path_prefix', '"src/auth"').describe('Narrow a files scan to a directory.'),
    continuation_token: optionalText('continuation_token', '"eyJzY29wZSI6..."').describe('The previous page\'s token.'),
    page_size: positiveInt('page_size', 100).describe(`Items per page (default 100, at most ${MAX_PAGE_SIZE}).`),
    max_tokens: maxTokens('the page', 'items past it are left for the next page'),
  },
  run: (a, { engine }) => scan(engine.memory, a),
});
