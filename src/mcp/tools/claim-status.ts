import { claimStatus } from '../../memory/index.js';
import { CLAIM_STATUS, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const claimStatusTool = defineTool({
  ...toolFace(CLAIM_STATUS),
  run: (a, { engine }) => claimStatus(engine.memory, a),
});
