import { defineTool } from './tool.js';

export const healthTool = defineTool({
  name: 'health',
  title: 'Server health',
  description:
    'Whether this server can answer: the repository it serves, whether its index is ready, missing, building or unreadable, ' +
    'and problems with what to do about them. Call it when other tools fail unexpectedly.',
  guide: { when: 'check the server and whether its index is ready', call: '{}' },
  inputSchema: {},
  run: (_a, { engine, server }) => ({ ...engine.health(), server }),
});
