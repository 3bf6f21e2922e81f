/** The `repo` argument workspace mode adds to every repository tool (the workspace tools declare theirs in src/spec/workspace.ts). */
import { text } from './args.js';

export const REPO_ARG = 'repo';

export const repoArg = () =>
  text('repo', '"api"').optional().describe('The repository id, as list_repos names it; required when the workspace serves more than one.');
