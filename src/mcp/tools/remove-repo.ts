import { REMOVE_REPO, toolFace } from '../../spec/index.js';
import { checkGrant } from '../grants.js';
import { defineWorkspaceTool } from './tool.js';

export const removeRepoTool = defineWorkspaceTool({
  ...toolFace(REMOVE_REPO),
  mutating: true,
  run: (a, { workspace, caller }) => {
    checkGrant(caller, removeRepoTool, a.repo);
    return workspace.remove(a.repo);
  },
});
