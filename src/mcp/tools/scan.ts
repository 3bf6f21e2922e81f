import { scan } from '../../memory/index.js';
import { SCAN, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const scanTool = defineTool({
  ...toolFace(SCAN),
  run: (a, { engine }) => scan(engine.memory, a),
});
