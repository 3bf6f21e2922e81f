import { LOCATE, toolFace } from '../../spec/index.js';
import { POOLED_BODIES } from './pooled.js';
import { defineTool } from './tool.js';

export const locateTool = defineTool({
  ...toolFace(LOCATE),
  readsIndex: true,
  pooled: true,
  run: POOLED_BODIES.locate,
});
