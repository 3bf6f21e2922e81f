/**
 * The messages between the main thread and a read-pool worker. A question
 * carries what the worker cannot decide itself: the writer's index version
 * (the answer is pinned to it), whether outdated citations are refused (the
 * main thread's freshness round), and the repository's configuration the
 * first time a worker sees that repository. Every reply carries the session
 * writes the answer made, for the one writer to replay.
 */
import type { Config } from '../../config/index.js';
import { SightlineError, type ErrorCode } from '../../errors/index.js';
import type { AnswerCacheStats } from '../../search/index.js';
import type { SessionWrite } from '../../store/index.js';
import type { IndexReadiness } from '../../engine/index.js';
import type { RenderedAnswer } from '../result.js';
import type { ServerFacts } from '../tools/index.js';
import type { WriterChannel } from './writer-call.js';

export interface ReadQuestion {
  id: number;
  /** A pooled tool's name (ToolDefinition.pooled). */
  tool: string;
  /** The arguments as the SDK validated them (defaults applied, `repo` removed). */
  args: Record<string, unknown>;
  session: string;
  /** The repository's root, resolved by the main thread. */
  root: string;
  /** Sent with a worker's first question about `root`, absent after. */
  config?: Config;
  /** The writer's connection and its Store.indexVersion() when the question was sent. */
  version: string;
  refuseOutdated: boolean;
  /** The repository's retrieval phase as the question left, which the worker renders the answer with. */
  phase: IndexReadiness;
}

/** What a worker starts with (its workerData). */
export interface WorkerStart {
  /** The server's facts as plain data: its getters (session count, workers) read once, at spawn. */
  facts: ServerFacts;
  writer: WriterChannel;
  /** The token rank table in memory the threads share (budget/ranks.ts); null: the worker reads its own. */
  ranks: SharedArrayBuffer | null;
}

/** Tells a worker a repository is no longer served: it closes its connection to that index and drops its configuration. */
export interface ForgetRepo {
  forget: string;
}

/** A repository's configuration, sent to a worker started before its first question about it (ReadPool.prestart). */
export interface ConfigureRepo {
  configure: string;
  config: Config;
}

/** What the main thread sends a worker. */
export type ToWorker = ReadQuestion | ForgetRepo | ConfigureRepo;

/** An error as it crosses threads: its class (by code) and what it said. */
export interface WireError {
  /** The SightlineError's code; null for anything else. */
  sightline: ErrorCode | null;
  message: string;
  /** SQLite's or Node's error code, which says "damaged" or "read-only". */
  code?: string;
  stack?: string;
}

export type ReadReply = {
  id: number;
  writes: SessionWrite[];
  /** The worker's answer cache over this repository's index, for `stats`; absent when it has none open. */
  cache?: AnswerCacheStats;
} & (
  | { kind: 'answer'; answer: RenderedAnswer }
  | { kind: 'outdated'; paths: string[] }
  | { kind: 'error'; error: WireError }
);

export function toWire(err: unknown): WireError {
  const e = err instanceof Error ? err : new Error(String(err));
  const code = (e as { code?: unknown }).code;
  return {
    sightline: e instanceof SightlineError ? e.code : null,
    message: e.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(e.stack ? { stack: e.stack } : {}),
  };
}

/** The error again on the main thread: a SightlineError stays one, a SQLite error keeps its code. */
export function fromWire(wire: WireError): Error {
  const err = wire.sightline ? new SightlineError(wire.sightline, wire.message) : Object.assign(new Error(wire.message), wire.code ? { code: wire.code } : {});
  if (wire.stack) err.stack = wire.stack;
  return err;
}
