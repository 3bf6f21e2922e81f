import { INDEX, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const startIndexTool = defineTool({
  ...toolFace(INDEX),
  mutating: true,
  writesIndex: true,
  run: async (a, { engine: { job } }) => {
    const pass = job.start();
    if (a.wait) await pass;
    else pass.catch(() => {}); // the failure is kept in the job status
    return { status: 'ok', job: job.snapshot() };
  },
});
