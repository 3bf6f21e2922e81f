import { z } from 'zod';
import { checkGrant } from '../grants.js';
import { flag, optionalText, positiveInt, stringList } from './args.js';
import { defineWorkspaceTool } from './tool.js';

export const addRepoTool = defineWorkspaceTool({
  name: 'add_repo',
  title: 'Add a repository',
  description:
    'Register a repository of the workspace and start indexing it; returns at once with the job (poll index_status with its repo). ' +
    'Either path (a directory under the workspace root; "..", absolute paths elsewhere and symlinks out are refused) or git (an https, ssh or git URL, ' +
    'or a git repository under the root) with ref (default HEAD) and refresh (default 5m): a git source indexes a commit, reported as indexed_commit, and is fetched again on its interval. ' +
    'A path and a git source are mutually exclusive for one id. Idempotent: adding it again resumes or updates the index; after reset_index it indexes again. ' +
    'Takes the walk filters of `sightline index`.',
  mutating: true,
  guide: { when: 'register a repository under the workspace (or a git URL) and index it', call: '{path: "services/api"}' },
  inputSchema: {
    path: optionalText('path', '"services/api"').describe('A directory under the workspace root.'),
    git: optionalText('git', '"https://example.com/team/api.git"').describe('A git URL, or a git repository under the workspace root; not with path.'),
    ref: optionalText('ref', '"main"').describe('git only: branch, tag or commit (default HEAD, the remote default branch).'),
    refresh: optionalText('refresh', '"5m"').describe('git only: fetch and index a new commit this often (30s, 5m, 1h, 1d; default 5m).'),
    id: optionalText('id', '"api"').describe('The repository id (default: the last segment of the path or URL).'),
    include: stringList('include', '["src/**"]').describe('Only files matching these globs.'),
    exclude: stringList('exclude', '["**/*.min.js"]').describe('Skip files matching these globs.'),
    gitignore: flag('gitignore').describe('Honour .gitignore and .git/info/exclude (default true).'),
    max_file_bytes: positiveInt('max_file_bytes', 1048576).describe('Skip files larger than this.'),
  } satisfies z.ZodRawShape,
  run: (a, { workspace, caller }) => workspace.add(a, { authorize: (id) => checkGrant(caller, addRepoTool, id) }),
});
