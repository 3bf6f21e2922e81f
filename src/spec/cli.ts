/**
 * The CLI's door to the declarations: every verb's spec and their commander
 * face, without the MCP face (zod), so a CLI verb starts without loading it
 * (the CLI's start path, see ARCHITECTURE.md). index.ts is the whole door.
 */
import { CONTEXT } from './context.js';
import { INDEX, INDEX_STATUS, WALK_FILTERS } from './indexing.js';
import { ADD_REPO, LIST_REPOS, REMOVE_REPO, RESET_INDEX } from './workspace.js';
import type { VerbSpec } from './define.js';
import { CHANGED, EXPLORE, RELATED } from './graph.js';
import { CLAIM, CLAIM_STATUS, FORGET, LIST_TOPICS, NEIGHBORS, RECALL, RELEASE_CLAIM, REMEMBER, RENEW_CLAIM, SCAN, UPDATE } from './memory.js';
import { LIST_FILES, LOCATE, OUTLINE, READ, SEARCH, STATS } from './retrieval.js';

/** Every verb declared here, in the order the reference lists them. */
export const VERBS: readonly VerbSpec[] = [
  SEARCH, CONTEXT, LOCATE, EXPLORE, RELATED, CHANGED, READ, OUTLINE, LIST_FILES, STATS, INDEX, INDEX_STATUS,
  RECALL, LIST_TOPICS, NEIGHBORS, SCAN, CLAIM_STATUS, REMEMBER, UPDATE, FORGET, CLAIM, RENEW_CLAIM, RELEASE_CLAIM,
  LIST_REPOS, ADD_REPO, REMOVE_REPO, RESET_INDEX,
];

/** The memory verbs, whose CLI faces share one action (cli/memory.ts). */
export const MEMORY_VERBS = { REMEMBER, UPDATE, FORGET, RECALL, LIST_TOPICS, NEIGHBORS, SCAN, CLAIM, RENEW_CLAIM, RELEASE_CLAIM, CLAIM_STATUS };

export { CONTEXT, CHANGED, EXPLORE, INDEX, INDEX_STATUS, LIST_FILES, LOCATE, OUTLINE, READ, RELATED, SEARCH, STATS, WALK_FILTERS };
export { ADD_REPO, LIST_REPOS, REMOVE_REPO, RESET_INDEX };
export { CLAIM, CLAIM_STATUS, FORGET, LIST_TOPICS, NEIGHBORS, RECALL, RELEASE_CLAIM, REMEMBER, RENEW_CLAIM, SCAN, UPDATE };
export { arg, cliArgs, flagName, limitsOf, mcpArgs, verb, type ArgSpec, type Face, type Guide, type VerbSpec } from './define.js';
export { addVerb, collect, examples, negated, parsePositiveInt, wireArgs } from './commander.js';
