import { claim } from '../../memory/index.js';
import { CLAIM, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const claimTool = defineTool({
  ...toolFace(CLAIM),
  mutating: true,
  run: (a, { engine }) => claim(engine.memory, a),
});
