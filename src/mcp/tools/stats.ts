import { STATS, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const statsTool = defineTool({
  ...toolFace(STATS),
  readsIndex: true,
  run: async (_a, { engine, usage }) => ({ ...engine.stats(), usage: await usage.report() }),
});
