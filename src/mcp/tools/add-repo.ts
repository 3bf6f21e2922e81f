import { ADD_REPO, toolFace } from '../../spec/index.js';
import { checkGrant } from '../grants.js';
import { defineWorkspaceTool } from './tool.js';

export const addRepoTool = defineWorkspaceTool({
  ...toolFace(ADD_REPO),
  mutating: true,
  run: (a, { workspace, caller }) => workspace.add(a, { authorize: (id) => checkGrant(caller, addRepoTool, id) }),
});
