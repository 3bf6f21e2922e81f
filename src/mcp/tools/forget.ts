import { forget } from '../../memory/index.js';
import { FORGET, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const forgetTool = defineTool({
  ...toolFace(FORGET),
  mutating: true,
  run: (a, { engine }) => forget(engine.memory, a),
});
