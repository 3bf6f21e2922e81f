import { OUTLINE, toolFace } from '../../spec/index.js';
import { POOLED_BODIES } from './pooled.js';
import { defineTool } from './tool.js';

export const outlineTool = defineTool({
  ...toolFace(OUTLINE),
  readsIndex: true,
  pooled: true,
  run: POOLED_BODIES.outline,
});
