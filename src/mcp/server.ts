/**
 * One McpServer per client session, with every tool of the runtime
 * registered. Each call is logged, runs its body inside the tool-body limit,
 * and comes back as a CallToolResult; nothing a tool throws reaches the
 * transport.
 */
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { countTokens } from '../budget/index.js';
import { classified, describeError, SightlineError } from '../errors/index.js';
import { estimateTokens, resultCount, toolError, toolResult } from './result.js';
import { SERVER_NAME, SERVER_VERSION, type Runtime } from './runtime.js';
import { strictInput, type ToolDefinition } from './tools/index.js';

export function createMcpServer(runtime: Runtime): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION });
  // Transports without session ids (stdio) serve one client per server: name its session here.
  const ownSession = `mcp-${randomUUID()}`;
  for (const tool of runtime.tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: strictInput(tool),
        annotations: { readOnlyHint: !tool.mutating, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      (args: Record<string, unknown>, extra: { sessionId?: string }) => invoke(runtime, tool, args, extra.sessionId ?? ownSession),
    );
  }
  return server;
}

async function invoke(runtime: Runtime, tool: ToolDefinition, args: Record<string, unknown>, session: string): Promise<CallToolResult> {
  const { context, log } = runtime;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  log.call(tool.name, args);
  try {
    const envelope = await answer(runtime, tool, args, session);
    const result = toolResult(envelope, context.engine.job.retrievalPhase);
    const replaced = recordUsage(runtime, tool.name, envelope, result);
    log.result(tool.name, { returned: resultCount(envelope), est_tokens: estimateTokens(result), ms: elapsed(), reads_replaced_tokens: replaced });
    return result;
  } catch (err) {
    log.error(tool.name, describeError(err), elapsed());
    // A SightlineError is the caller's to fix; anything else is a bug worth seeing on stderr.
    if (!(classified(err) instanceof SightlineError)) runtime.options.warn(`tool ${tool.name} failed: ${(err as Error)?.stack ?? String(err)}`);
    return toolError(err);
  }
}

/**
 * A tool that reads the index answers once the index is searchable (or says
 * it is still building) and the query embedder has started; the engine
 * answers from the text on disk. The dashboard passes the engine's `asIs`
 * view, which answers from the index as it is and discloses what is stale.
 * Waiting happens outside the tool-body limit.
 */
export async function answer(runtime: Runtime, tool: ToolDefinition, args: Record<string, unknown>, session: string, engine = runtime.context.engine): Promise<object> {
  const { context, limiter } = runtime;
  if (tool.readsIndex) {
    const building = await engine.whenReady();
    if (building) return building;
  }
  return limiter.run(() => tool.run(args, { ...context, engine, session }));
}

/** Records every answer's exact cost as sent, and what it replaced (whole files a context bundle delivered); returns the latter. */
function recordUsage(runtime: Runtime, tool: string, envelope: object, result: CallToolResult): number {
  const first = result.content[0];
  const field = (envelope as { reads_replaced_tokens?: unknown }).reads_replaced_tokens;
  const replaced = typeof field === 'number' ? field : 0;
  runtime.context.usage.record(tool, first?.type === 'text' ? countTokens(first.text) : 0, replaced);
  return replaced;
}
