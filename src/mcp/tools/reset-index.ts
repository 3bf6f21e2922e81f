import { RESET_INDEX, toolFace } from '../../spec/index.js';
import { checkGrant } from '../grants.js';
import { defineWorkspaceTool } from './tool.js';

export const resetIndexTool = defineWorkspaceTool({
  ...toolFace(RESET_INDEX),
  mutating: true,
  run: (a, { workspace, caller }) => {
    checkGrant(caller, resetIndexTool, a.repo);
    return workspace.reset(a.repo);
  },
});
