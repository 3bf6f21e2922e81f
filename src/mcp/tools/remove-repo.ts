import { checkGrant } from '../grants.js';
import { requiredRepoArg } from './repo-arg.js';
import { defineWorkspaceTool } from './tool.js';

export const removeRepoTool = defineWorkspaceTool({
  name: 'remove_repo',
  title: 'Remove a repository',
  description:
    'Forget a repository: stop indexing it and delete its code index and its agent memory. Files on disk are never touched; an unknown id is a no-op. ' +
    'To repair a stale or damaged index and keep memory, use reset_index instead.',
  mutating: true,
  guide: { when: 'stop serving a repository and delete its index and memory', call: '{repo: "api"}' },
  inputSchema: { repo: requiredRepoArg() },
  run: (a, { workspace, caller }) => {
    checkGrant(caller, removeRepoTool, a.repo);
    return workspace.remove(a.repo);
  },
});
