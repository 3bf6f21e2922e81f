import { checkGrant } from '../grants.js';
import { requiredRepoArg } from './repo-arg.js';
import { defineWorkspaceTool } from './tool.js';

export const resetIndexTool = defineWorkspaceTool({
  name: 'reset_index',
  title: 'Reset a repository index',
  description:
    'Drop a repository\'s code index (files, chunks, symbols, vectors, graph, sessions) and keep its agent memory. The repository stays listed, with no ' +
    'last_verified, file_count or indexed_commit, and memory tools keep answering; add_repo indexes it again. An unknown id is a no-op.',
  mutating: true,
  guide: { when: 'repair a stale or damaged index without losing what agents remembered', call: '{repo: "api"}' },
  inputSchema: { repo: requiredRepoArg() },
  run: (a, { workspace, caller }) => {
    checkGrant(caller, resetIndexTool, a.repo);
    return workspace.reset(a.repo);
  },
});
