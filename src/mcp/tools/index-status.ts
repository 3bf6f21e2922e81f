import { INDEX_STATUS, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const indexStatusTool = defineTool({
  ...toolFace(INDEX_STATUS),
  run: (_a, { engine, upkeep }) => ({ status: 'ok', job: engine.job.snapshot(), upkeep: upkeep?.() ?? null }),
});
