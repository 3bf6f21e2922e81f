/** The index verbs: index (a pass now) and index_status (the job, from any process). */
import { arg, verb } from './define.js';

const SERVER_WALK = "over MCP the walk's rules are the server's configuration, the same for every client";

/**
 * How a repository is walked, which `index` and `add_repo`/`workspace add`
 * take alike: over MCP only add_repo takes them (`index` walks by the
 * server's configuration), so `index` passes the reason it has none.
 */
function walkFilterArgs<const F extends { face: 'cli'; only: string } | { face: 'both' }>(face: F) {
  return [
    arg.flag('gitignore', { ...face, default: true, doc: 'Honour .gitignore and .git/info/exclude', cli: 'ignore .gitignore and .git/info/exclude rules' }),
    arg.list('include', { ...face, doc: 'Only files matching these globs', cli: 'only files matching', example: '["src/**"]', metavar: 'glob' }),
    arg.list('exclude', { ...face, doc: 'Skip files matching these globs', cli: 'skip files matching', example: '["**/*.min.js"]', metavar: 'glob' }),
    arg.int('max_file_bytes', { ...face, doc: 'Skip files larger than this', cli: 'skip files larger than this', example: 1048576 }),
  ] as const;
}

/** The walk filters as every repository a workspace adds takes them, on both faces. */
export const WALK_FILTERS = walkFilterArgs({ face: 'both' });

export const INDEX = verb({
  tool: 'index',
  command: 'index',
  title: 'Update the index',
  description:
    'Start an incremental index pass (only changed files are read) and return its status; queries keep answering while it runs. ' +
    'Use it after changing or adding many files. Poll index_status, or set wait to true to return when the pass ends.',
  summary: 'index a repository incrementally (only changed files are read)',
  guide: { when: 'update the index after changing or adding many files', call: '{wait: true}' },
  args: [
    arg.text('path', {
      face: 'cli',
      only: 'a server indexes the repository it serves',
      positional: { label: 'path' },
      doc: 'The repository to index (default: --repo, else the current directory)',
    }),
    arg.flag('wait', {
      face: 'mcp',
      only: 'the CLI always waits for its pass, with progress on stderr',
      doc: 'Return when the pass has finished (default false: return as soon as it started).',
    }),
    arg.flag('force', { face: 'cli', only: 'dropping the index under clients that are searching it is an operator\'s act', doc: 'drop the index and rebuild it from scratch' }),
    arg.flag('dry_run', { face: 'cli', only: 'a preview for a person choosing walk filters', doc: 'show what would be indexed, write nothing' }),
    ...walkFilterArgs({ face: 'cli', only: SERVER_WALK }),
    arg.int('max_memory_mb', {
      face: 'cli',
      only: "over MCP the memory ceiling is the server's configuration, one for the whole process",
      doc: 'The memory ceiling in MB that batch sizes and caches follow (env SIGHTLINE_MAX_MEMORY_MB; default 512)',
      cli: 'memory ceiling in MB that batch sizes and caches follow (env SIGHTLINE_MAX_MEMORY_MB, default 512)',
      example: 512,
    }),
  ],
  examples: ['sightline index', 'sightline index ../other-repo --force', 'sightline index --dry-run --exclude "**/*.min.js"'],
});

export const INDEX_STATUS = verb({
  tool: 'index_status',
  command: 'status',
  title: 'Index job status',
  description:
    'The repository index job, as recorded in the index (so a pass run by another process, such as `sightline index` or a watcher, shows too): ' +
    'status (none, running, completed, failed), phase (walking, parsing, writing, resolving, embedding, done; keyword search answers from resolving on, and the embedding starts beside it), files done out of total, live counts ' +
    '(scanned, added, updated, removed, unchanged, skipped, chunks, symbols, vectors), attempts, start, last progress and end times, the process running it, ' +
    'and why it failed (an interrupted pass resumes on the next one); upkeep counts failed passes in a row and when the next retry runs. Call it when an answer says retrieval_phase: building, to know when results will be complete.',
  summary: 'the index job, from any process: status, phase, live counts, attempts, times, and why it failed',
  guide: { when: 'follow the index job: status, phase, progress, why it failed', call: '{}' },
  args: [],
  examples: ['sightline status', 'sightline status --repo ../service --json'],
});
