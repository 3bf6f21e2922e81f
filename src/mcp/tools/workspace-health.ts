import { mayRead } from '../grants.js';
import { repoArg } from './repo-arg.js';
import { defineWorkspaceTool } from './tool.js';

export const workspaceHealthTool = defineWorkspaceTool({
  name: 'health',
  title: 'Workspace health',
  description:
    'Without repo: whether the workspace can serve: retrieval_phase nothing_registered (no repository yet; ready, there is nothing to serve), building or serving, ' +
    'and each repository you may read with its last pass and failures. With repo: that repository\'s readiness (serving, building, keyword_only, or ' +
    'nothing_registered when its last pass found no file: not ready), the reason, its index, the watcher and the retries of failed passes. Advisory, never authoritative.',
  guide: { when: 'check the workspace, or whether one repository is ready to answer', call: '{repo: "api"}' },
  inputSchema: { repo: repoArg() },
  run: async (a, { workspace, caller, server }) => ({ ...(await workspace.health(a.repo, mayRead(caller))), server }),
});
