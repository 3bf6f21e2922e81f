import { mayRead } from '../grants.js';
import { defineWorkspaceTool } from './tool.js';

export const listReposTool = defineWorkspaceTool({
  name: 'list_repos',
  title: 'Workspace repositories',
  description:
    'Every repository this workspace serves that you may read, in ascending id order: id, indexed_root (the directory indexed, not implied by the id), ' +
    'source (path or git), last_verified (when a pass last completed, including one that changed nothing), file_count, vector_count (null until a pass completed; ' +
    'vector_count_pending while chunks wait for vectors), indexed_commit (git sources only), job status and retries of failed passes. ' +
    'A reset repository stays listed with nulls until add_repo indexes it again. Pass one of the ids as `repo` to the other tools; index_status is the authority for an index still running.',
  guide: { when: 'see which repositories the workspace serves, and pick the `repo` for other tools', call: '{}' },
  inputSchema: {},
  run: async (_a, { workspace, caller }) => {
    const repos = await workspace.list(mayRead(caller));
    return { status: 'ok', workspace: workspace.root, count: repos.length, repos };
  },
});
