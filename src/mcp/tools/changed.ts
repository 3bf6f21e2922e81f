import { maxTokens, optionalText } from './args.js';
import { defineTool } from './tool.js';

export const changedTool = defineTool({
  name: 'changed',
  title: 'Changed since the index',
  description:
    'Files added, modified and removed since the repository was indexed (content digests, no git needed; untouched files are settled ' +
    'by a stat), plus the indexed files that depend on the modified or removed ones: the blast radius of the edits before re-indexing, ' +
    'each with citation_status. ' +
    'A path restricts the report to that directory; a path outside the repository is refused.',
  readsIndex: true,
  guide: { when: 'see which files changed since the index, and which indexed files depend on them', call: '{path: "src/auth"}' },
  inputSchema: {
    path: optionalText('path', '"src/auth"').describe('A directory or file inside the repository to restrict the report to (default: the whole repository).'),
    max_tokens: maxTokens('the whole answer', 'lists are filled added, modified, removed, impact, and what is cut is counted in omitted'),
  },
  run: (a, { engine }) => engine.changed(a.path, { maxTokens: a.max_tokens }),
});
