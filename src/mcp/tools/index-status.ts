import { defineTool } from './tool.js';

export const indexStatusTool = defineTool({
  name: 'index_status',
  title: 'Index job status',
  description:
    'Progress of the background index pass: status (none, running, completed, failed), phase, files done out of total, attempts, start and end times, ' +
    'and why it failed. Call it when an answer says retrieval_phase: building, to know when results will be complete.',
  inputSchema: {},
  run: (_a, { job }) => ({ status: 'ok', job: job.snapshot() }),
});
