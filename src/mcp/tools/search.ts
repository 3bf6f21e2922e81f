import { SEARCH, toolFace } from '../../spec/index.js';
import { POOLED_BODIES } from './pooled.js';
import { defineTool } from './tool.js';

export const searchTool = defineTool({
  ...toolFace(SEARCH),
  readsIndex: true,
  pooled: true,
  run: POOLED_BODIES.search,
});
