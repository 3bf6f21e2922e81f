import { READ, toolFace } from '../../spec/index.js';
import { POOLED_BODIES } from './pooled.js';
import { defineTool } from './tool.js';

export const readTool = defineTool({
  ...toolFace(READ),
  readsIndex: true,
  pooled: true,
  run: POOLED_BODIES.read,
});
