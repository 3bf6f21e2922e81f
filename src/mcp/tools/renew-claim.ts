import { renewClaim } from '../../memory/index.js';
import { RENEW_CLAIM, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const renewClaimTool = defineTool({
  ...toolFace(RENEW_CLAIM),
  mutating: true,
  run: (a, { engine }) => renewClaim(engine.memory, a),
});
