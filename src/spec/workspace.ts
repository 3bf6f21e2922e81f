/** The workspace verbs: list_repos, add_repo, remove_repo, reset_index; on the CLI `workspace list|add|remove|reset`. */
import { arg, verb } from './define.js';
import { WALK_FILTERS } from './indexing.js';

/** The repository a workspace verb is about: a positional id on the CLI. */
const repoId = (doc = 'The repository id, as list_repos names it.') => arg.text('repo', { required: true, positional: { label: 'id' }, doc, example: '"api"' });

export const LIST_REPOS = verb({
  tool: 'list_repos',
  command: 'workspace list',
  title: 'Workspace repositories',
  description:
    'Every repository this workspace serves that you may read, in ascending id order: id, indexed_root (the directory indexed, not implied by the id), ' +
    'source (path or git), last_verified (when a pass last completed, including one that changed nothing), file_count, vector_count (null until a pass completed; ' +
    'vector_count_pending while chunks wait for vectors), indexed_commit (git sources only), job status and retries of failed passes. ' +
    'A reset repository stays listed with nulls until add_repo indexes it again. Pass one of the ids as `repo` to the other tools; index_status is the authority for an index still running.',
  summary: 'every registered repository: id, files, vectors, last verified, indexed commit and root',
  guide: { when: 'see which repositories the workspace serves, and pick the `repo` for other tools', call: '{}' },
  args: [],
  examples: ['sightline workspace list', 'sightline workspace list --workspace ~/src --json'],
});

export const ADD_REPO = verb({
  tool: 'add_repo',
  command: 'workspace add',
  title: 'Add a repository',
  description:
    'Register a repository of the workspace and start indexing it; returns at once with the job (poll index_status with its repo). ' +
    'Either path (a directory under the workspace root; "..", absolute paths elsewhere and symlinks out are refused) or git (an https, ssh or git URL, ' +
    'or a git repository under the root) with ref (default HEAD) and refresh (default 5m): a git source indexes a commit, reported as indexed_commit, and is fetched again on its interval. ' +
    'A path and a git source are mutually exclusive for one id. Idempotent: adding it again resumes or updates the index; after reset_index it indexes again. ' +
    'Takes the walk filters of `sightline index`.',
  summary: 'register a directory under the root (or --git a source) and index it; again: update it',
  guide: { when: 'register a repository under the workspace (or a git URL) and index it', call: '{path: "services/api"}' },
  args: [
    arg.text('path', { positional: { label: 'path' }, doc: 'A directory under the workspace root.', example: '"services/api"' }),
    arg.text('git', {
      doc: 'A git URL, or a git repository under the workspace root; not with path.',
      cli: 'index a commit of this git repository (a URL, or a path under the root) instead of a directory',
      example: '"https://example.com/team/api.git"',
      metavar: 'url-or-path',
    }),
    arg.text('ref', { doc: 'git only: branch, tag or commit (default HEAD, the remote default branch).', cli: 'with --git: branch, tag or commit (default HEAD)', example: '"main"' }),
    arg.text('refresh', {
      doc: 'git only: fetch and index a new commit this often (30s, 5m, 1h, 1d; default 5m).',
      cli: 'with --git: how often a server fetches it, e.g. 30s, 5m, 1h (default 5m)',
      example: '"5m"',
      metavar: 'interval',
    }),
    arg.text('id', { doc: 'The repository id (default: the last segment of the path or URL).', example: '"api"' }),
    ...WALK_FILTERS,
  ],
  examples: ['sightline workspace add services/api', 'sightline workspace add --git ../mirrors/web.git --id web --ref main', 'sightline workspace add libs/core --exclude "**/*.gen.ts" --json'],
});

export const REMOVE_REPO = verb({
  tool: 'remove_repo',
  command: 'workspace remove',
  title: 'Remove a repository',
  description:
    'Forget a repository: stop indexing it and delete its code index and its agent memory. Files on disk are never touched; an unknown id is a no-op. ' +
    'To repair a stale or damaged index and keep memory, use reset_index instead.',
  summary: 'forget a repository and delete its index and memory (its files are never touched)',
  guide: { when: 'stop serving a repository and delete its index and memory', call: '{repo: "api"}' },
  args: [repoId()],
  examples: ['sightline workspace remove api', 'sightline workspace remove api --json'],
});

export const RESET_INDEX = verb({
  tool: 'reset_index',
  command: 'workspace reset',
  title: 'Reset a repository index',
  description:
    "Drop a repository's code index (files, chunks, symbols, vectors, graph, sessions) and keep its agent memory. Answers at once with phase resetting: " +
    "the sweep runs in the background as the repository's job (index_status: running in phase resetting, then completed with what it dropped, or failed; " +
    'health and list_repos show the phase), and outlives the call. The repository stays listed, with no last_verified, file_count or indexed_commit, ' +
    'and memory tools keep answering; add_repo indexes it again (it waits for the sweep). An unknown id is a no-op; resetting again is safe.',
  summary: "drop a repository's code index and keep its memory; `workspace add` indexes it again (the CLI waits for the sweep)",
  guide: { when: 'repair a stale or damaged index without losing what agents remembered', call: '{repo: "api"}' },
  args: [repoId()],
  examples: ['sightline workspace reset api', 'sightline workspace reset api --json'],
});
