/**
 * One McpServer per client session, built for the caller it authenticated
 * as: the tools that caller's grants allow are registered, and a call to one
 * they leave out is refused by name. Each call is logged, resolves the
 * repository it is for (the `repo` argument in a workspace, checked against
 * the caller's grant), runs inside the tool-body limit, and comes back as a
 * CallToolResult; nothing a tool throws reaches the transport.
 */
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { z } from 'zod';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Engine, IndexReadiness } from '../engine/index.js';
import { recoveredSentence } from '../engine/index.js';
import { classified, describeError, isCorruption, SightlineError } from '../errors/index.js';
import type { Caller } from './grants.js';
import { Prerendered, renderAnswer, toolError, toolResult, type RenderedAnswer } from './result.js';
import { SERVER_NAME, SERVER_VERSION, type Runtime } from './runtime.js';
import { REPO_ARG, repoArg, strictInput, type ToolContext, type ToolDefinition, type WorkspaceToolDefinition } from './tools/index.js';

export function createMcpServer(runtime: Runtime, caller: Caller): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION });
  // Transports without session ids (stdio) serve one client per server: name its session here.
  const ownSession = `mcp-${randomUUID()}`;
  const asked = new Map<Engine, Set<string>>();
  // A closed session's refusal count and receipts are of no use again (its id is never reused): they go with it.
  server.server.onclose = () => releaseSessions(asked);
  // A session's first search would wait for a read worker's start: one starts as the session begins.
  const { readPool: pool, options } = runtime;
  if (pool && options.served.kind === 'repo') {
    const { engine } = options.served.unit;
    server.server.oninitialized = () => pool.prestart(engine);
  }
  const offered = runtime.toolsFor(caller);
  refuseWithheld(server, offered.withheld);
  const extra: z.ZodRawShape = runtime.workspace ? { [REPO_ARG]: repoArg() } : {};
  const register = (tool: ToolDefinition | WorkspaceToolDefinition, input: object, run: (args: Record<string, unknown>, session: string) => Promise<CallToolResult>) =>
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: input as ReturnType<typeof strictInput>,
        annotations: { readOnlyHint: !tool.mutating, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      (args: Record<string, unknown>, call: { sessionId?: string }) => run(args, call.sessionId ?? ownSession),
    );
  for (const tool of offered.repo) {
    register(tool, strictInput(tool, extra), (args, session) => logged(runtime, tool.name, args, () => repoAnswer(runtime, caller, tool, args, session, asked)));
  }
  for (const tool of offered.workspace) {
    const context = { workspace: runtime.workspace!, caller, server: runtime.server };
    register(tool, strictInput(tool), (args) => logged(runtime, tool.name, args, async () => ({ envelope: await tool.run(args, context), phase: null })));
  }
  return server;
}

/**
 * A call to a tool this server has but the caller's grants leave out gets a
 * refusal naming the grant, before the SDK looks the tool up (to it, an
 * unregistered tool is only "not found"). The SDK sets its tools/call handler
 * when the first tool registers; it is wrapped as it is set.
 */
function refuseWithheld(server: McpServer, withheld: Map<string, string>): void {
  if (withheld.size === 0) return;
  const inner = server.server;
  const set = inner.setRequestHandler.bind(inner);
  type Handler = Parameters<typeof set>[1];
  inner.setRequestHandler = ((schema: Parameters<typeof set>[0], handler: Handler) => {
    if (schema !== CallToolRequestSchema) return set(schema, handler);
    return set(schema, ((request: { params: { name: string } }, extra: Parameters<Handler>[1]) => {
      const refusal = withheld.get(request.params.name);
      return refusal ? toolError(new SightlineError('forbidden', refusal)) : handler(request as Parameters<Handler>[0], extra);
    }) as Handler);
  }) as typeof inner.setRequestHandler;
}

/** An envelope to render with the serving repository's phase (null for workspace tools), or an answer a read worker rendered. */
type Answered = { envelope: object; phase: IndexReadiness | null } | { rendered: RenderedAnswer };

/** A call answered, logged and counted in flight from its arrival (Runtime.calls): a stop lets it answer first. */
function logged(runtime: Runtime, name: string, args: Record<string, unknown>, answer: () => Promise<Answered>): Promise<CallToolResult> {
  return runtime.calls.run(() => answerLogged(runtime, name, args, answer));
}

async function answerLogged(runtime: Runtime, name: string, args: Record<string, unknown>, answer: () => Promise<Answered>): Promise<CallToolResult> {
  const { log } = runtime;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  log.call(name, args);
  try {
    const answered = await answer();
    const rendered = 'rendered' in answered ? answered.rendered : renderAnswer(answered.envelope, answered.phase);
    await recordUsage(runtime, name, rendered);
    log.result(name, { returned: rendered.returned, est_tokens: rendered.tokens, ms: elapsed(), reads_replaced_tokens: rendered.replaced });
    return toolResult(rendered);
  } catch (err) {
    log.error(name, describeError(err), elapsed());
    // A SightlineError is the caller's to fix; anything else is a bug worth seeing on stderr.
    if (!(classified(err) instanceof SightlineError)) runtime.options.warn(`tool ${name} failed: ${(err as Error)?.stack ?? String(err)}`);
    return toolError(err);
  }
}

/**
 * The repository the call names (in a workspace) is resolved here, once for
 * every tool, and its Engine becomes the tool's context. A tool that reads
 * the index answers once the index is searchable (or says it is still
 * building) and the query embedder has started; the engine answers from the
 * text on disk. Waiting happens outside the tool-body limit. A damaged index
 * is rebuilt in the background and the call answered again.
 */
async function repoAnswer(
  runtime: Runtime,
  caller: Caller,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  session: string,
  asked: Map<Engine, Set<string>>,
): Promise<Answered> {
  const { [REPO_ARG]: named, ...rest } = args;
  const own = runtime.workspace ? rest : args;
  const { unit, armed } = await runtime.unitFor(caller, tool, named as string | undefined);
  if (!asked.has(unit.engine)) asked.set(unit.engine, new Set());
  asked.get(unit.engine)!.add(session);
  if ((tool.readsIndex || tool.writesIndex) && !armed) {
    throw new SightlineError('usage', `the code index of ${unit.id} was reset; add_repo indexes it again (its memory was kept and memory tools answer meanwhile)`);
  }
  const { engine } = unit;
  const context: ToolContext = { engine, server: runtime.server, usage: runtime.usage, upkeep: unit.upkeep, session };
  const phase = () => engine.job.retrievalPhase;
  const answerOnce = async (): Promise<Answered> => {
    const answer = await runWhenReady(runtime, tool, own, context, { readPool: true });
    return answer instanceof Prerendered ? { rendered: answer.answer } : { envelope: answer, phase: phase() };
  };
  try {
    return await answerOnce();
  } catch (err) {
    // A damaged index is moved aside and rebuilt in the background (IndexJob.recoverDamaged); the call is
    // answered once more, from the new index or with the building answer, instead of every call failing.
    const recovery = isCorruption(err) ? engine.job.recoverDamaged() : null;
    if (!recovery) throw err;
    runtime.options.warn(`${recoveredSentence(recovery)}; rebuilding it in the background (health says how far)`);
    return answerOnce();
  }
}

/**
 * Runs one tool as every call runs: a tool that reads the index first waits
 * until it is searchable (or answers that it is still building), outside the
 * tool-body limit; the body then runs inside it. The dashboard's calls too.
 * `readPool`, which only an MCP session's call sets, sends a pooled tool to
 * the read pool's workers instead, outside the limit (which then bounds the
 * heavy tools alone), and their answer comes back rendered (Prerendered);
 * the dashboard's `asIs` engine always answers here.
 */
export async function runWhenReady(
  runtime: Runtime,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  context: ToolContext,
  route: { readPool?: boolean } = {},
): Promise<object> {
  if (tool.readsIndex) {
    const building = await context.engine.whenReady();
    if (building) return building;
  }
  const pool = route.readPool ? runtime.readPool : null;
  if (pool && context.session && pool.takes(tool, context.engine)) return pool.answer(context.engine, tool, args, context.session);
  return runtime.limiter.run(async (queuedMs) => withQueueWait(await tool.run(args, context), queuedMs));
}

/**
 * An answer that waited for a tool-concurrency slot says how long, so an
 * agent that sees a slow answer knows the server was busy, not the question
 * hard; one that found a slot free is unchanged. One short field, added
 * after the answer counted itself (as retrieval_phase is): a few tokens.
 */
function withQueueWait(envelope: object, queuedMs: number): object {
  return queuedMs === 0 ? envelope : { ...envelope, queued_ms: queuedMs };
}

/** Drops the budget sessions a closed client session kept in each index it asked; cleanup, so a failure only leaves rows the TTL drops. */
function releaseSessions(asked: Map<Engine, Set<string>>): void {
  for (const [engine, sessions] of asked) {
    for (const session of sessions) {
      // An index closed or unwritable now, or the team database away: the rows expire with SESSION_TTL_MS.
      try {
        void Promise.resolve(engine.repo.sessions.end(session)).catch(() => {});
      } catch {
        // (the SQLite table throws synchronously)
      }
    }
  }
  asked.clear();
}

/** Records every answer's exact cost as sent, and what it replaced (whole files a context bundle delivered). */
async function recordUsage(runtime: Runtime, tool: string, answer: RenderedAnswer): Promise<void> {
  try {
    await runtime.usage.record(tool, answer.tokens, answer.replaced);
  } catch (err) {
    runtime.options.warn(`usage of ${tool} was not recorded: ${describeError(err)}`); // the answer stands without it
  }
}
