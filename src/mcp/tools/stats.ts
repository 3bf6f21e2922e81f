import { stats } from '../../engine/index.js';
import { defineTool } from './tool.js';

export const statsTool = defineTool({
  name: 'stats',
  title: 'Index statistics',
  description:
    'What the index holds: files, chunks, symbols, languages, file kinds, files skipped by reason, size on disk and when it was last indexed. ' +
    'Use it to judge how big the repository is before broad searches.',
  readsIndex: true,
  inputSchema: {},
  run: (_a, { repo }) => stats(repo),
});
