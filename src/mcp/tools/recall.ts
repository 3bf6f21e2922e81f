import { RECALL, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const recallTool = defineTool({
  ...toolFace(RECALL),
  run: (a, { engine }) => engine.recall(a),
});
