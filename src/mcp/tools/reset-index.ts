import { checkGrant } from '../grants.js';
import { requiredRepoArg } from './repo-arg.js';
import { defineWorkspaceTool } from './tool.js';

export const resetIndexTool = defineWorkspaceTool({
  name: 'reset_index',
  title: 'Reset a repository index',
  description:
    'Drop a repository\'s code index (files, chunks, symbols, vectors, graph, sessions) and keep its agent memory. Answers at once with phase resetting: ' +
    'the sweep runs in the background as the repository\'s job (index_status: running in phase resetting, then completed with what it dropped, or failed; ' +
    'health and list_repos show the phase), and outlives the call. The repository stays listed, with no last_verified, file_count or indexed_commit, ' +
    'and memory tools keep answering; add_repo indexes it again (it waits for the sweep). An unknown id is a no-op; resetting again is safe.',
  mutating: true,
  guide: { when: 'repair a stale or damaged index without losing what agents remembered', call: '{repo: "api"}' },
  inputSchema: { repo: requiredRepoArg() },
  run: (a, { workspace, caller }) => {
    checkGrant(caller, resetIndexTool, a.repo);
    return workspace.reset(a.repo);
  },
});
