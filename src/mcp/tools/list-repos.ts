import { LIST_REPOS, toolFace } from '../../spec/index.js';
import { mayRead } from '../grants.js';
import { defineWorkspaceTool } from './tool.js';

export const listReposTool = defineWorkspaceTool({
  ...toolFace(LIST_REPOS),
  run: async (_a, { workspace, caller }) => {
    const repos = await workspace.list(mayRead(caller));
    return { status: 'ok', workspace: workspace.root, count: repos.length, repos };
  },
});
