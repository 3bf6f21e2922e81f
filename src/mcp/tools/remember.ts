import { remember } from '../../memory/index.js';
import { REMEMBER, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const rememberTool = defineTool({
  ...toolFace(REMEMBER),
  mutating: true,
  run: (a, { engine }) => remember(engine.memory, a),
});
