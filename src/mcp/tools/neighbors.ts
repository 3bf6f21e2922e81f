import { NEIGHBORS, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const neighborsTool = defineTool({
  ...toolFace(NEIGHBORS),
  run: (a, { engine }) => engine.neighbors(a),
});
