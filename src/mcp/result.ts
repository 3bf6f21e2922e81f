/**
 * The one place an engine answer or error becomes a CallToolResult: the
 * envelope as one JSON text; errors as `isError: true` with the user-facing
 * sentence (never a stack trace).
 *
 * The answer is sent once. No tool declares an outputSchema, so MCP does not
 * require `structuredContent` (the SDK checks it only against an
 * outputSchema), and sending it beside the text would deliver every answer
 * twice while its budget and `tokens` count it once.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../errors/index.js';
import type { IndexReadiness } from '../engine/index.js';

/** `phase`: the repository's, for a repository tool; null for a workspace tool, whose answer says its own. */
export function toolResult(envelope: object, phase: IndexReadiness | null): CallToolResult {
  if (phase === null) return { content: [{ type: 'text', text: JSON.stringify(envelope) }] };
  // The first index still running wins; after it, a search's own phase says how far its vectors are.
  const own = (envelope as { retrieval_phase?: string }).retrieval_phase;
  const answer = { ...envelope, retrieval_phase: phase === 'building' ? phase : (own ?? phase) };
  return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
}

/** A tool that reads the index runs only once it is searchable (server.ts), so "not found" here means not found. */
export function toolError(err: unknown): CallToolResult {
  return { content: [{ type: 'text', text: describeError(err) }], isError: true };
}

/** How many items an answer returned: its first list of results, files or symbols, else one. */
export function resultCount(envelope: object): number {
  for (const key of ['results', 'files', 'symbols']) {
    const list = (envelope as Record<string, unknown>)[key];
    if (Array.isArray(list)) return list.length;
  }
  return 1;
}

/** A cheap estimate for the log (about four characters a token); answers carry exact counts where they matter. */
export function estimateTokens(result: CallToolResult): number {
  const first = result.content[0];
  return first?.type === 'text' ? Math.ceil(first.text.length / 4) : 0;
}
