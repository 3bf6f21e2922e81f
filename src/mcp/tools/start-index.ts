import { flag } from './args.js';
import { defineTool } from './tool.js';

export const startIndexTool = defineTool({
  name: 'index',
  title: 'Update the index',
  description:
    'Start an incremental index pass (only changed files are read) and return its status; queries keep answering while it runs. ' +
    'Use it after changing or adding many files. Poll index_status, or set wait to true to return when the pass ends.',
  mutating: true,
  guide: { when: 'update the index after changing or adding many files', call: '{wait: true}' },
  inputSchema: {
    wait: flag('wait').describe('Return when the pass has finished (default false: return as soon as it started).'),
  },
  run: async (a, { engine: { job } }) => {
    const pass = job.start();
    if (a.wait) await pass;
    else pass.catch(() => {}); // the failure is kept in the job status
    return { status: 'ok', job: job.snapshot() };
  },
});
