/**
 * What a tool is: a name, a description an agent can act on, a zod input
 * shape (the SDK validates calls against it and advertises it as JSON
 * Schema), and a body that calls one engine function. Bodies hold no
 * retrieval logic.
 */
import { z } from 'zod';
import type { UsageLedger } from '../../budget/index.js';
import type { Engine } from '../../engine/index.js';
import type { UpkeepStatus, Workspace } from '../../workspace/index.js';
import type { Caller } from '../grants.js';
import { unknownArguments } from './args.js';

/** What the server says about itself in `health`. */
export interface ServerFacts {
  name: string;
  version: string;
  transport: string;
  tool_concurrency: number;
  /** Worker threads answering pooled tools (0: every tool answers on the main thread). */
  read_workers: number;
  writes_enabled: boolean;
  started_at: string;
  /** Client sessions held now (network transports expire idle ones; stdio has its one). */
  readonly open_sessions: number;
}

export interface ToolContext {
  /** The repository the call is about (in a workspace, the one its `repo` argument names). */
  engine: Engine;
  server: ServerFacts;
  /** What answering cost and saved over the last hour (the `stats` tool reports it). */
  usage: UsageLedger;
  /** The client session the call came in on: the gate counts refusals and `context` keeps receipts per session. */
  session?: string;
  /** The retries of failed index passes, when the repository is kept live. */
  upkeep?: () => UpkeepStatus | null;
}

/** What a workspace tool (list_repos, add_repo, …) works on: the workspace, seen as the calling caller. */
export interface WorkspaceContext {
  workspace: Workspace;
  caller: Caller;
  server: ServerFacts;
}

/** When an agent should reach for the tool, and a typical call's arguments. */
export interface ToolGuide {
  /** Completes "When you want to…". */
  when: string;
  /** The arguments of an example call, as the agent would write them. */
  call: string;
}

export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  inputSchema: Shape;
  /** One row of the agent guide init writes into CLAUDE.md and AGENTS.md. */
  guide: ToolGuide;
  /** Changes the index: advertised only when the server runs with --enable-writes. */
  mutating?: boolean;
  /** Reads the index: the first call starts the first index in the background. */
  readsIndex?: boolean;
  /**
   * Answered by a read-pool worker for an MCP session (see mcp/read-pool): the
   * body reads the index and the disk only, and writes nothing but session
   * bookkeeping, which the worker journals for the main thread. Its body is
   * the one in tools/pooled.ts, which the worker runs without this face.
   */
  pooled?: boolean;
  /** Runs an index pass: like a read of the index, refused on a workspace repository whose index was reset (add_repo re-arms it). */
  writesIndex?: boolean;
  run(args: z.output<z.ZodObject<Shape>>, context: ToolContext): object | Promise<object>;
}

export function defineTool<Shape extends z.ZodRawShape>(tool: ToolDefinition<Shape>): ToolDefinition<Shape> {
  return tool;
}

/** A tool of workspace mode that works on the workspace itself rather than on one repository. */
export interface WorkspaceToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> extends Omit<ToolDefinition<Shape>, 'run' | 'readsIndex' | 'writesIndex'> {
  run(args: z.output<z.ZodObject<Shape>>, context: WorkspaceContext): object | Promise<object>;
}

export function defineWorkspaceTool<Shape extends z.ZodRawShape>(tool: WorkspaceToolDefinition<Shape>): WorkspaceToolDefinition<Shape> {
  return tool;
}

/**
 * What calls are validated against and the schema advertised: the tool's shape as a strict
 * object. Given a raw shape the SDK builds a plain object, which drops unknown keys, so a
 * misspelt argument would be ignored and the call answered as if it were never sent.
 */
export function strictInput(tool: Pick<ToolDefinition, 'name' | 'inputSchema'>, extra: z.ZodRawShape = {}): z.ZodObject {
  const shape = { ...tool.inputSchema, ...extra };
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownArguments(tool.name, issue.keys, known) : undefined),
  });
}
