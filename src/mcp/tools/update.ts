import { update } from '../../memory/index.js';
import { UPDATE, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const updateTool = defineTool({
  ...toolFace(UPDATE),
  mutating: true,
  run: (a, { engine }) => update(engine.memory, a),
});
