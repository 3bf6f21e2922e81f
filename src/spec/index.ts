/**
 * One declaration per verb (in the manner of ripgrep's flags/defs.rs): the
 * MCP tool's name, title, description and arguments, the CLI verb's name,
 * positionals, flags and examples, and the reference in docs/tools.md, all
 * made from it. Below both faces; it knows commander and zod, not cli/ or mcp/.
 * The CLI imports cli.ts, the same declarations without zod.
 */
export * from './cli.js';
export { describe as describeArg, flag, inputShape, optionalText, positiveInt, stringList, text, toolFace, type Wire } from './zod.js';
export { reference, splice } from './markdown.js';
