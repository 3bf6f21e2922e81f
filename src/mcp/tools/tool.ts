/**
 * What a tool is: a name, a description an agent can act on, a zod input
 * shape (the SDK validates calls against it and advertises it as JSON
 * Schema), and a body that calls one engine function. Bodies hold no
 * retrieval logic.
 */
import { z } from 'zod';
import type { UsageMeter } from '../../budget/index.js';
import type { Engine } from '../../engine/index.js';
import { unknownArguments } from './args.js';

/** What the server says about itself in `health`. */
export interface ServerFacts {
  name: string;
  version: string;
  transport: string;
  tool_concurrency: number;
  writes_enabled: boolean;
  started_at: string;
}

export interface ToolContext {
  /** The repository the call is about. */
  engine: Engine;
  server: ServerFacts;
  env: NodeJS.ProcessEnv;
  /** What answering cost and saved over the last hour (the `stats` tool reports it). */
  usage: UsageMeter;
  /** The client session the call came in on: the gate counts refusals and `context` keeps receipts per session. */
  session?: string;
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
  /** Whether this server offers the tool at all (test-only tools look at the environment). */
  available?(context: ToolContext): boolean;
  run(args: z.output<z.ZodObject<Shape>>, context: ToolContext): object | Promise<object>;
}

export function defineTool<Shape extends z.ZodRawShape>(tool: ToolDefinition<Shape>): ToolDefinition<Shape> {
  return tool;
}

/**
 * What calls are validated against and the schema advertised: the tool's shape as a strict
 * object. Given a raw shape the SDK builds a plain object, which drops unknown keys, so a
 * misspelt argument would be ignored and the call answered as if it were never sent.
 */
export function strictInput(tool: ToolDefinition): z.ZodObject {
  const known = Object.keys(tool.inputSchema);
  return z.strictObject(tool.inputSchema, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownArguments(tool.name, issue.keys, known) : undefined),
  });
}
