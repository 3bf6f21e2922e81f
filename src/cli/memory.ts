/**
 * The memory verbs, one per MCP tool: remember, update, forget, recall,
 * list-topics, neighbors, scan, claim, renew-claim, release-claim,
 * claim-status. Writes need --enable-writes, as the tools need the server's.
 * A lost claim is an answer (granted: false), not a failure: exit 0.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { Engine } from '../engine/index.js';
import { usageError } from '../errors/index.js';
import * as memory from '../memory/index.js';
import { collect, common, emit, examples, positiveInt, withEngine, type CommonOptions } from './verb.js';

type Options = CommonOptions & Record<string, unknown>;

/** Repeatable `name=value` (values may hold commas, unlike `collect`). */
function pairs(value: string, previous: [string, string][] = []): [string, string][] {
  const eq = value.indexOf('=');
  if (eq < 1) throw new InvalidArgumentError('expected name=value');
  return [...previous, [value.slice(0, eq), value.slice(eq + 1)]];
}

function linkMap(list: unknown): Record<string, string[]> | undefined {
  if (!list) return undefined;
  const out: Record<string, string[]> = {};
  for (const [relation, target] of list as [string, string][]) (out[relation] ??= []).push(target);
  return out;
}

const fields = (list: unknown) => (list ? Object.fromEntries(list as [string, string][]) : undefined);

interface Verb {
  name: string;
  args: string;
  description: string;
  mutating?: boolean;
  options: [flags: string, help: string, parse?: (v: string, p: never) => unknown][];
  examples: string[];
  run(engine: Engine, args: string[], o: Options): Promise<object>;
}

const TOKEN: Verb['options'][number] = ['--token <n>', 'the fencing token claim returned (required while the record is claimed)', positiveInt];
const LINKS: Verb['options'] = [
  ['--link <relation=key>', 'link to file:<path>, symbol:<path>#<name> or memory:<topic>/<id> (repeatable)', pairs],
  ['--unlink <relation=key>', 'remove a link (repeatable)', pairs],
];
const BUDGET: Verb['options'][number] = ['--max-tokens <n>', 'cut the answer to this many tokens', positiveInt];
const n = (v: unknown) => v as number | undefined;
const s = (v: unknown) => v as string | undefined;

const VERBS: Verb[] = [
  {
    name: 'remember', args: '<topic>', mutating: true, description: 'create a memory record under a topic, or merge into one by --id',
    options: [['--id <id>', 'merge into this record (omit to create)'], ['--kind <kind>', `${memory.KINDS.join(', ')} (default note; set at creation)`], ['--title <text>', 'title'], ['--body <text>', 'body (at most 64 KiB)'], ['--author <name>', 'author'], ['--provenance <text>', 'where it came from'], ['--tag <tag>', 'tags (repeatable)', collect], ...LINKS, ['--ttl <seconds>', 'expire after this long', positiveInt], TOKEN],
    examples: ['sightline remember auth --kind decision --title "Sessions expire after 1h" --link about=file:src/auth/session.ts --enable-writes', 'sightline remember backlog --id item-7 --body todo --tag todo --enable-writes --json'],
    run: (engine, [topic], o) => memory.remember(engine.memory, { topic: topic!, id: s(o.id), kind: s(o.kind), title: s(o.title), body: s(o.body), author: s(o.author), provenance: s(o.provenance), tags: o.tag as string[] | undefined, add_links: linkMap(o.link), remove_links: linkMap(o.unlink), ttl_seconds: n(o.ttl), fencing_token: n(o.token) }),
  },
  {
    name: 'update', args: '<key>', mutating: true, description: 'patch fields, tags and links of a memory record (last writer wins per field; TTL kept)',
    options: [['--field <name=value>', `set a field: ${memory.MEMORY_FIELDS.join(', ')} (repeatable)`, pairs], ['--tag <tag>', 'add tags (repeatable)', collect], ['--untag <tag>', 'remove tags (repeatable)', collect], ...LINKS, TOKEN],
    examples: ['sightline update memory:backlog/item-7 --field body=done --tag done --untag todo --token 12 --enable-writes'],
    run: (engine, [key], o) => memory.update(engine.memory, { key: key!, fields: fields(o.field), add_tags: o.tag as string[] | undefined, remove_tags: o.untag as string[] | undefined, add_links: linkMap(o.link), remove_links: linkMap(o.unlink), fencing_token: n(o.token) }),
  },
  {
    name: 'forget', args: '<key>', mutating: true, description: 'delete a memory record, or --lapse it so readers drain',
    options: [['--lapse', 'expire in --lapse-seconds instead of deleting now'], ['--lapse-seconds <n>', 'the lapse window (default 60)', positiveInt], TOKEN],
    examples: ['sightline forget memory:auth/old-note --enable-writes', 'sightline forget memory:backlog/item-7 --lapse --lapse-seconds 30 --enable-writes'],
    run: (engine, [key], o) => memory.forget(engine.memory, { key: key!, lapse: Boolean(o.lapse), lapse_seconds: n(o.lapseSeconds), fencing_token: n(o.token) }),
  },
  {
    name: 'recall', args: '<key>', description: 'one record by key, with link staleness and citation_status on code links',
    options: [BUDGET], examples: ['sightline recall memory:auth/session-ttl', 'sightline recall file:src/auth/session.ts --json'],
    run: (engine, [key], o) => engine.recall({ key: key!, max_tokens: n(o.maxTokens) }),
  },
  {
    name: 'list-topics', args: '', description: 'memory topics with their live record counts',
    options: [], examples: ['sightline list-topics --json'],
    run: (engine) => memory.listTopics(engine.memory),
  },
  {
    name: 'neighbors', args: '<key>', description: 'walk links out of a memory record, breadth first',
    options: [['--relation <name>', 'only links of this relation'], ['--depth <n>', `hops (default 1, at most ${memory.MAX_NEIGHBOR_DEPTH})`, positiveInt], ['--max-nodes <n>', `cap (default 50, at most ${memory.MAX_NEIGHBOR_NODES})`, positiveInt], BUDGET],
    examples: ['sightline neighbors memory:auth/session-ttl --depth 2'],
    run: (engine, [key], o) => engine.neighbors({ key: key!, relation: s(o.relation), depth: n(o.depth), max_nodes: n(o.maxNodes), max_tokens: n(o.maxTokens) }),
  },
  {
    name: 'scan', args: '<scope>', description: `page through ${memory.SCAN_SCOPES.join(', ')} in key order`,
    options: [['--topic <topic>', 'the topic of a memory_topic scan'], ['--path-prefix <dir>', 'narrow a files scan'], ['--continue <token>', 'the previous page\'s continuation_token'], ['--page-size <n>', `items per page (default 100, at most ${memory.MAX_PAGE_SIZE})`, positiveInt], BUDGET],
    examples: ['sightline scan memory_topic --topic backlog --json', 'sightline scan files --path-prefix src --page-size 50'],
    run: (engine, [scope], o) => memory.scan(engine.memory, { scope: scope!, topic: s(o.topic), path_prefix: s(o.pathPrefix), continuation_token: s(o.continue), page_size: n(o.pageSize), max_tokens: n(o.maxTokens) }),
  },
  {
    name: 'claim', args: '<key>', mutating: true, description: 'claim a memory record: a fencing token for every later write, and a lease',
    options: [['--owner <name>', 'who claims it (required)'], ['--lease <seconds>', `lease (default ${memory.DEFAULT_LEASE_SECONDS}, at most ${memory.MAX_LEASE_SECONDS})`, positiveInt], ['--wait <seconds>', 'queue for up to this long (default: fail fast)', positiveInt]],
    examples: ['sightline claim memory:backlog/item-7 --owner agent-3 --lease 120 --enable-writes --json'],
    run: (engine, [key], o) => memory.claim(engine.memory, { key: key!, owner: s(o.owner) ?? '', lease_seconds: n(o.lease), max_wait_seconds: n(o.wait) }),
  },
  {
    name: 'renew-claim', args: '<key>', mutating: true, description: 'extend a claim you hold (same token); superseded once it lapsed',
    options: [TOKEN, ['--lease <seconds>', 'the new lease, from now', positiveInt]],
    examples: ['sightline renew-claim memory:backlog/item-7 --token 12 --lease 120 --enable-writes'],
    run: (engine, [key], o) => memory.renewClaim(engine.memory, { key: key!, fencing_token: required(o.token), lease_seconds: n(o.lease) }),
  },
  {
    name: 'release-claim', args: '<key>', mutating: true, description: 'release a claim (idempotent); its token stays refused',
    options: [TOKEN], examples: ['sightline release-claim memory:backlog/item-7 --token 12 --enable-writes'],
    run: (engine, [key], o) => memory.releaseClaim(engine.memory, { key: key!, fencing_token: required(o.token) }),
  },
  {
    name: 'claim-status', args: '<key>', description: 'who holds a claim and how deep its queue is (not authoritative)',
    options: [], examples: ['sightline claim-status memory:backlog/item-7'],
    run: (engine, [key]) => memory.claimStatus(engine.memory, { key: key! }),
  },
];

function required(token: unknown): number {
  if (token === undefined) throw usageError('--token is required: pass the fencing token claim returned');
  return token as number;
}

/** Text for a person: one `name  value` line per field, nested values as JSON. */
function renderText(value: object): string {
  return Object.entries(value)
    .filter(([k]) => k !== 'status')
    .map(([k, v]) => `${k.padEnd(22)} ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('\n');
}

export function registerMemory(program: Command): void {
  for (const verb of VERBS) {
    const cmd = program.command(`${verb.name} ${verb.args}`.trim()).description(verb.description);
    for (const [flags, help, parse] of verb.options) (parse ? cmd.option(flags, help, parse as never) : cmd.option(flags, help));
    if (verb.mutating) cmd.option('--enable-writes', 'allow this write (memory writes are opt-in, as on the server)');
    cmd.addHelpText('after', examples(...verb.examples));
    common(cmd).action(async (...params: unknown[]) => {
      const o = params[params.length - 2] as Options;
      const args = params.slice(0, -2) as string[];
      await withEngine(o, async (engine) => {
        if (verb.mutating && !o.enableWrites) throw usageError(`${verb.name} changes memory; pass --enable-writes`);
        emit(o, await verb.run(engine, args, o), renderText);
      });
    });
  }
}
