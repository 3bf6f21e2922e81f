import { defineTool } from './tool.js';

export const healthTool = defineTool({
  name: 'health',
  title: 'Server health',
  description:
    'Whether this server can answer: the repository it serves, whether its index is ready, missing, building, rebuilding (it was damaged) or unreadable, ' +
    'and problems with what to do about them. Call it when other tools fail unexpectedly.',
  guide: { when: 'check the server and whether its index is ready', call: '{}' },
  inputSchema: {},
  run: (_a, { engine, server }) => {
    const found = engine.health();
    // A server that finds its index damaged rebuilds it, and says so here.
    const recovering = found.index === 'damaged' && engine.job.recoverDamaged();
    return { ...(recovering ? engine.health() : found), server };
  },
});
