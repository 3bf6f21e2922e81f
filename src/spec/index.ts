/**
 * One declaration per verb (in the manner of ripgrep's flags/defs.rs): the
 * MCP tool's name, title, description and arguments, the CLI verb's name,
 * positionals, flags and examples, and the reference in docs/tools.md, all
 * made from it. Below both faces; it knows commander and zod, not cli/ or mcp/.
 */
import { CONTEXT } from './context.js';
import type { VerbSpec } from './define.js';
import { CHANGED, EXPLORE, RELATED } from './graph.js';
import { CLAIM, CLAIM_STATUS, FORGET, LIST_TOPICS, NEIGHBORS, RECALL, RELEASE_CLAIM, REMEMBER, RENEW_CLAIM, SCAN, UPDATE } from './memory.js';
import { LIST_FILES, LOCATE, OUTLINE, READ, SEARCH, STATS } from './retrieval.js';

/** Every verb declared here, in the order the reference lists them. */
export const VERBS: readonly VerbSpec[] = [
  SEARCH, CONTEXT, LOCATE, EXPLORE, RELATED, CHANGED, READ, OUTLINE, LIST_FILES, STATS,
  RECALL, LIST_TOPICS, NEIGHBORS, SCAN, CLAIM_STATUS, REMEMBER, UPDATE, FORGET, CLAIM, RENEW_CLAIM, RELEASE_CLAIM,
];

/** The memory verbs, whose CLI faces share one action (cli/memory.ts). */
export const MEMORY_VERBS = { REMEMBER, UPDATE, FORGET, RECALL, LIST_TOPICS, NEIGHBORS, SCAN, CLAIM, RENEW_CLAIM, RELEASE_CLAIM, CLAIM_STATUS };

export { CONTEXT, CHANGED, EXPLORE, LIST_FILES, LOCATE, OUTLINE, READ, RELATED, SEARCH, STATS };
export { CLAIM, CLAIM_STATUS, FORGET, LIST_TOPICS, NEIGHBORS, RECALL, RELEASE_CLAIM, REMEMBER, RENEW_CLAIM, SCAN, UPDATE };
export { arg, cliArgs, flagName, limitsOf, mcpArgs, verb, type ArgSpec, type Face, type Guide, type VerbSpec } from './define.js';
export { describe as describeArg, flag, inputShape, optionalText, positiveInt, stringList, text, toolFace, type Wire } from './zod.js';
export { addVerb, collect, examples, negated, parsePositiveInt, wireArgs } from './commander.js';
export { reference, splice } from './markdown.js';
