/**
 * The bodies of the tools a read-pool worker answers (mcp/read-pool), apart
 * from their faces: the worker runs these and loads neither zod nor the rest
 * of the tool registry, which cost ~100 ms of its start, paid by the first
 * question it answers. Each tool's file pairs its face with its body here;
 * `pooled` tools are exactly these.
 */
import type { VerbSpec } from '../../spec/define.js';
import type { LIST_FILES, LOCATE, OUTLINE, READ, SEARCH, Wire } from '../../spec/index.js';
import type { ToolContext } from './tool.js';

/** A tool's body: the arguments as its face validated them. */
type Body<Spec extends VerbSpec> = (a: Wire<Spec['args']>, context: ToolContext) => object | Promise<object>;

const search: Body<typeof SEARCH> = (a, { engine, session }) =>
  engine.search({
    query: a.query,
    scope: a.scope,
    exclude: a.exclude,
    kind: a.kind,
    regex: a.regex,
    k: a.k,
    files: a.files,
    mode: a.mode,
    force: a.force,
    maxTokens: a.max_tokens,
    expand: a.expand,
    session,
  });

const locate: Body<typeof LOCATE> = (a, { engine, session }) =>
  engine.locate({ query: a.query, kind: a.kind, scope: a.scope, maxResults: a.max_results, maxTokens: a.max_tokens, force: a.force, session });

const read: Body<typeof READ> = (a, { engine, session }) => engine.read({ target: a.target, expand: a.expand ?? true, maxTokens: a.max_tokens, force: a.force, session });

const outline: Body<typeof OUTLINE> = (a, { engine }) => engine.outline(a.path, { maxTokens: a.max_tokens });

const listFiles: Body<typeof LIST_FILES> = (a, { engine }) =>
  engine.listFiles({ glob: a.glob, language: a.language, maxResults: a.max_results, maxTokens: a.max_tokens, cursor: a.cursor });

/** By tool name. */
export const POOLED_BODIES = { search, locate, read, outline, list_files: listFiles } as const;

/** Arguments a face validated elsewhere (the main thread, for a worker): what `pooledBody` is called with. */
type Validated = (args: Record<string, unknown>, context: ToolContext) => object | Promise<object>;

/** The body of pooled tool `name`, if there is one. */
export function pooledBody(name: string): Validated | undefined {
  return Object.hasOwn(POOLED_BODIES, name) ? (POOLED_BODIES[name as keyof typeof POOLED_BODIES] as Validated) : undefined;
}
