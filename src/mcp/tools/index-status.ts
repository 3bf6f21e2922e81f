import { defineTool } from './tool.js';

export const indexStatusTool = defineTool({
  name: 'index_status',
  title: 'Index job status',
  description:
    'The repository index job, as recorded in the index (so a pass run by another process, such as `sightline index` or a watcher, shows too): ' +
    'status (none, running, completed, failed), phase (walking, parsing, writing, embedding, done), files done out of total, live counts ' +
    '(scanned, added, updated, removed, unchanged, skipped, chunks, symbols, vectors), attempts, start, last progress and end times, the process running it, ' +
    'and why it failed (an interrupted pass resumes on the next one). Call it when an answer says retrieval_phase: building, to know when results will be complete.',
  guide: { when: 'follow the index job: status, phase, progress, why it failed', call: '{}' },
  inputSchema: {},
  run: (_a, { engine }) => ({ status: 'ok', job: engine.job.snapshot() }),
});
