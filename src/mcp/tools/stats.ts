import { STATS, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const statsTool = defineTool({
  ...toolFace(STATS),
  readsIndex: true,
  run: (_a, { engine, usage }) => ({ ...engine.stats(), usage: usage.report() }),
});
