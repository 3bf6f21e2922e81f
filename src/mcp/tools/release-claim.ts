import { releaseClaim } from '../../memory/index.js';
import { RELEASE_CLAIM, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const releaseClaimTool = defineTool({
  ...toolFace(RELEASE_CLAIM),
  mutating: true,
  run: (a, { engine }) => releaseClaim(engine.memory, a),
});
