/**
 * The one place an engine answer or error becomes a CallToolResult: the
 * envelope as one JSON text; errors as `isError: true` with the user-facing
 * sentence (never a stack trace).
 *
 * The answer is sent once. No tool declares an outputSchema, so MCP does not
 * require `structuredContent` (the SDK checks it only against an
 * outputSchema), and sending it beside the text would deliver every answer
 * twice while its budget and `tokens` count it once.
 *
 * An answer is rendered once, where it was built: a read worker sends the
 * text with its exact token count, so the main thread, which every session
 * shares, neither encodes nor counts it (read-pool/worker.ts).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { countTokens } from '../budget/index.js';
import { describeError } from '../errors/index.js';
import type { IndexReadiness } from '../engine/index.js';

/** An answer as sent, with what the call log and the usage ledger need of it. */
export interface RenderedAnswer {
  text: string;
  /** The text's exact token count. */
  tokens: number;
  /** How many items it returned (resultCount). */
  returned: number;
  /** Tokens of whole files the answer replaced (a context bundle's `reads_replaced_tokens`), else 0. */
  replaced: number;
  /** The envelope's own retrieval_phase, which the served phase may override (answerText). */
  ownPhase: string | null;
}

/** What the read pool answers instead of an envelope: the answer a worker rendered (server.ts sends it as it is). */
export class Prerendered {
  constructor(readonly answer: RenderedAnswer) {}
}

/** `phase`: the repository's, for a repository tool; null for a workspace tool, whose answer says its own. */
export function renderAnswer(envelope: object, phase: IndexReadiness | null): RenderedAnswer {
  const text = answerText(envelope, phase);
  const field = (envelope as { reads_replaced_tokens?: unknown }).reads_replaced_tokens;
  const own = (envelope as { retrieval_phase?: unknown }).retrieval_phase;
  return { text, tokens: countTokens(text), returned: resultCount(envelope), replaced: typeof field === 'number' ? field : 0, ownPhase: typeof own === 'string' ? own : null };
}

function answerText(envelope: object, phase: IndexReadiness | null): string {
  if (phase === null) return JSON.stringify(envelope);
  // The first index still running wins; after it, a search's own phase says how far its vectors are.
  const own = (envelope as { retrieval_phase?: string }).retrieval_phase;
  return JSON.stringify({ ...envelope, retrieval_phase: phase === 'building' ? phase : (own ?? phase) });
}

/**
 * The same answer for another served phase (the index's phase moved while a
 * worker built it): its text parsed and its retrieval_phase set again, which
 * keeps every key where it was, so the text equals renderAnswer's.
 */
export function rephased(answer: RenderedAnswer, phase: IndexReadiness): RenderedAnswer {
  const envelope = JSON.parse(answer.text) as { retrieval_phase?: string };
  envelope.retrieval_phase = phase === 'building' ? phase : (answer.ownPhase ?? phase);
  const text = JSON.stringify(envelope);
  return { ...answer, text, tokens: countTokens(text) };
}

export function toolResult(answer: RenderedAnswer): CallToolResult {
  return { content: [{ type: 'text', text: answer.text }] };
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
