/**
 * The memory verbs, one per MCP tool and declared with it in src/spec:
 * remember, update, forget, recall, list-topics, neighbors, scan, claim,
 * renew-claim, release-claim, claim-status. Each hands its arguments, by wire
 * name, to the function the tool calls. Writes need --enable-writes, as the
 * tools need the server's. A lost claim is an answer (granted: false), not a
 * failure: exit 0.
 */
import type { Command } from 'commander';
import type { Engine } from '../engine/index.js';
import { usageError } from '../errors/index.js';
import { addVerb, MEMORY_VERBS as V, wireArgs, type ArgSpec, type VerbSpec } from '../spec/cli.js';
import type { Wire } from '../spec/index.js';
import { common, emit, withEngine, type CommonOptions } from './verb.js';

/** The memory module, loaded when a verb runs (not when the CLI starts). */
type Memory = typeof import('../memory/index.js');

interface MemoryVerb {
  spec: VerbSpec;
  run(engine: Engine, args: object, memory: Memory): object | Promise<object>;
}

/** Pairs a spec with the body its tool has, typed by the spec's arguments. */
function memoryVerb<A extends readonly ArgSpec[]>(spec: VerbSpec<A>, run: (engine: Engine, args: Wire<A>, memory: Memory) => object | Promise<object>): MemoryVerb {
  return { spec, run: run as MemoryVerb['run'] };
}

const VERBS: MemoryVerb[] = [
  memoryVerb(V.REMEMBER, (engine, a, memory) => memory.remember(engine.memory, a)),
  memoryVerb(V.UPDATE, (engine, a, memory) => memory.update(engine.memory, a)),
  memoryVerb(V.FORGET, (engine, a, memory) => memory.forget(engine.memory, a)),
  memoryVerb(V.RECALL, (engine, a) => engine.recall(a)),
  memoryVerb(V.LIST_TOPICS, (engine, _a, memory) => memory.listTopics(engine.memory)),
  memoryVerb(V.NEIGHBORS, (engine, a) => engine.neighbors(a)),
  memoryVerb(V.SCAN, (engine, a, memory) => memory.scan(engine.memory, a)),
  memoryVerb(V.CLAIM, (engine, a, memory) => memory.claim(engine.memory, a)),
  memoryVerb(V.RENEW_CLAIM, (engine, a, memory) => memory.renewClaim(engine.memory, a)),
  memoryVerb(V.RELEASE_CLAIM, (engine, a, memory) => memory.releaseClaim(engine.memory, a)),
  memoryVerb(V.CLAIM_STATUS, (engine, a, memory) => memory.claimStatus(engine.memory, a)),
];

/** Text for a person: one `name  value` line per field, nested values as JSON. */
function renderText(value: object): string {
  return Object.entries(value)
    .filter(([k]) => k !== 'status')
    .map(([k, v]) => `${k.padEnd(22)} ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('\n');
}

export function registerMemory(program: Command): void {
  for (const { spec, run } of VERBS) {
    const mutating = spec.args.some((a) => a.name === 'enable_writes');
    common(addVerb(program, spec)).action(async (...params: unknown[]) => {
      const o = params[params.length - 2] as CommonOptions & { enableWrites?: boolean };
      await withEngine(o, async (engine) => {
        if (mutating && !o.enableWrites) throw usageError(`${spec.command} changes memory; pass --enable-writes`);
        emit(o, await run(engine, wireArgs(spec, params.slice(0, -2), o), await import('../memory/index.js')), renderText);
      });
    });
  }
}
