import { defineTool } from './tool.js';

export const statsTool = defineTool({
  name: 'stats',
  title: 'Index statistics',
  description:
    'What the index holds: files, chunks, symbols, languages, file kinds, files skipped by reason, size on disk and when it was last indexed. ' +
    'Use it to judge how big the repository is before broad searches. usage sums this server\'s answers over the last hour, per tool: calls, ' +
    'response_tokens spent, reads_replaced_tokens (whole files delivered by context) and net_saved_tokens (their difference); answer_cache counts searches answered again from the cache.',
  readsIndex: true,
  guide: { when: 'see what the index holds and what answering has cost and saved', call: '{}' },
  inputSchema: {},
  run: (_a, { engine, usage }) => ({ ...engine.stats(), usage: usage.report() }),
});
