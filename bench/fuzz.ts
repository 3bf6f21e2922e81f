/**
 * Seeded fuzzing of the MCP tools, shared by `bench:soak` and the test
 * suite's slice of it: every advertised tool gets random and adversarial
 * arguments built from its input schema (1 MB strings, catastrophic regexes,
 * long tokens, quotes and control characters, paths out of the root, wrong
 * types, unknown arguments). An answer is `ok`, a `refusal` (an error that
 * names what was wrong) or `internal` (an internal error: a bug).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export type Outcome = 'ok' | 'refusal' | 'internal';

export interface FuzzCall {
  name: string;
  arguments: Record<string, unknown>;
}

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  items?: PropertySchema;
  anyOf?: PropertySchema[];
}

export interface ToolSchema {
  name: string;
  inputSchema: { properties?: Record<string, PropertySchema> };
}

/** A small, fast PRNG (mulberry32): the same seed gives the same calls. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MB = 1_048_576;
const CATASTROPHIC = ['(\\w+\\s?)*$', '(a+)+$', '(a|a)*$', '(a|aa)+$', '(.*a){12}$', '([a-z]+)*!x', '(a*)*b', '^(\\w+)*\\d$'];

/** Built once: the big ones are shared between calls. */
const ADVERSARIAL: readonly string[] = [
  'a'.repeat(MB),
  'x'.repeat(100_000),
  'getUserNameFromSessionTokenAndCache'.repeat(3_000),
  'a/'.repeat(50_000),
  '../'.repeat(20) + 'etc/passwd',
  '/etc/passwd',
  '',
  ' ',
  '\u0000\u0001\u0002\u001b[31m',
  "'`;DROP TABLE files;--",
  'a\' OR "b',
  'NEAR(a b) OR c* AND NOT d:e',
  '"unterminated',
  '**/*.{ts,js',
  '!(foo).ts',
  '\ud800',
  '🦀'.repeat(5_000),
  '%s%n%x',
  '${process.exit(1)}',
  'memory:../../x',
  ...CATASTROPHIC,
];

const ORDINARY: readonly string[] = ['session', 'SessionManager', 'hashToken', 'src/auth/session.ts', 'parse config file', 'README.md', 'src', '*.ts', 'auth', 'memory:auth/ttl', 'file:src/auth/session.ts'];

const NUMBERS: readonly unknown[] = [0, 1, 3, 10, -1, 1e9, 2 ** 53, 0.5, -0.0, null, '7'];

function pick<T>(next: () => number, from: readonly T[]): T {
  return from[Math.floor(next() * from.length)]!;
}

function typeOf(schema: PropertySchema): string {
  if (schema.anyOf?.length) return typeOf(schema.anyOf[0]!);
  return (Array.isArray(schema.type) ? schema.type[0] : schema.type) ?? 'string';
}

function valueFor(next: () => number, schema: PropertySchema): unknown {
  const roll = next();
  if (roll < 0.05) return pick(next, [null, {}, [], true, 42, 'x'] as unknown[]); // the wrong type
  if (schema.enum?.length && roll < 0.7) return pick(next, schema.enum);
  switch (typeOf(schema)) {
    case 'number':
    case 'integer':
      return pick(next, NUMBERS);
    case 'boolean':
      return next() < 0.5;
    case 'array': {
      const n = Math.floor(next() * 4);
      return Array.from({ length: n }, () => valueFor(next, schema.items ?? { type: 'string' }));
    }
    case 'object':
      return {};
    default:
      return next() < 0.45 ? pick(next, ORDINARY) : pick(next, ADVERSARIAL);
  }
}

/** `count` calls over `tools`, round robin so every tool is called, with seeded arguments. */
export function fuzzCalls(tools: readonly ToolSchema[], count: number, seed: number): FuzzCall[] {
  const next = rng(seed);
  const calls: FuzzCall[] = [];
  for (let i = 0; i < count; i++) {
    const tool = tools[i % tools.length]!;
    const args: Record<string, unknown> = {};
    for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      if (next() < 0.6) args[name] = valueFor(next, schema);
    }
    if (next() < 0.03) args[pick(next, ['scoep', '__proto__', 'constructor', ''])] = 'x';
    calls.push({ name: tool.name, arguments: args });
  }
  return calls;
}

/** What a tool call's answer was: internal errors are bugs, every other error is a refusal. */
export function outcomeOf(result: CallToolResult): Outcome {
  if (!result.isError) return 'ok';
  const first = result.content[0];
  const text = first?.type === 'text' ? first.text : '';
  return /internal error/i.test(text) ? 'internal' : 'refusal';
}

/** Calls one fuzzed tool call; a protocol-level rejection (the SDK throws) is a refusal too. */
export async function callFuzzed(client: Client, call: FuzzCall, timeoutMs: number): Promise<{ outcome: Outcome; text: string }> {
  try {
    const result = (await client.callTool({ name: call.name, arguments: call.arguments }, undefined, { timeout: timeoutMs })) as CallToolResult;
    const first = result.content[0];
    return { outcome: outcomeOf(result), text: first?.type === 'text' ? first.text.slice(0, 300) : '' };
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    // No answer in time is a wedged server, as bad as an internal error.
    return { outcome: /internal error|timed out/i.test(message) ? 'internal' : 'refusal', text: message.slice(0, 300) };
  }
}
