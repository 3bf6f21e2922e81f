/**
 * The memory verbs: remember, update, forget, recall, list_topics,
 * neighbors, scan, claim, renew_claim, release_claim, claim_status. The CLI
 * hands the same wire-named arguments (`wireArgs`) to the same functions the
 * tools call.
 */
import { DEFAULT_LAPSE_SECONDS, DEFAULT_LEASE_SECONDS, MAX_LEASE_SECONDS, MAX_NEIGHBOR_DEPTH, MAX_NEIGHBOR_NODES, MAX_PAGE_SIZE, SCAN_SCOPES } from '../memory/limits.js';
import { KINDS, MEMORY_FIELDS } from '../memory/types.js';
import { arg, verb } from './define.js';

const EXAMPLE_KEY = '"memory:backlog/item-7"';

const memoryKey = () =>
  arg.text('key', { required: true, positional: { label: 'key' }, doc: 'A memory record key, memory:<topic>/<id>', example: EXAMPLE_KEY });

/** Writes are opt-in on both faces: the server's --enable-writes over MCP, this flag on each CLI call. */
const enableWrites = () =>
  arg.flag('enable_writes', {
    face: 'cli',
    only: "over MCP the server's --enable-writes decides whether the tool is offered at all",
    doc: 'allow this write (memory writes are opt-in, as on the server)',
  });

const fencingToken = () =>
  arg.int('fencing_token', {
    doc: 'The token claim returned; required while the record is claimed',
    cli: 'the fencing token claim returned (required while the record is claimed)',
    example: 12,
    flag: 'token',
  });

/** The token of a claim the caller holds (renew, release): required. */
const heldToken = () => arg.int('fencing_token', { required: true, doc: 'The token claim returned', cli: 'the fencing token claim returned', example: 12, flag: 'token' });

const links = (name: 'add_links' | 'remove_links') =>
  name === 'add_links'
    ? arg.links('add_links', { doc: 'Relation → target keys to link', cli: 'link to file:<path>, symbol:<path>#<name> or memory:<topic>/<id>', flag: 'link', metavar: 'relation=key' })
    : arg.links('remove_links', { doc: 'Relation → target keys to unlink', cli: 'remove a link', flag: 'unlink', metavar: 'relation=key' });

export const REMEMBER = verb({
  tool: 'remember',
  command: 'remember',
  title: 'Remember',
  description:
    'Create a memory record (decision, note or memory) under a topic, or merge into an existing one by id; fields are last-writer-wins. ' +
    'Link it to files (file:<path>), symbols (symbol:<path>#<name>) or other memory (memory:<topic>/<id>): a link to code goes stale when the code changes. ' +
    "A claimed record needs the claim's fencing_token.",
  summary: 'create a memory record under a topic, or merge into one by --id',
  guide: {
    when: 'keep a decision or finding for later sessions, linked to the code it is about',
    call: '{topic: "auth", kind: "decision", title: "Sessions expire after 1h", body: "...", add_links: {about: ["file:src/auth/session.ts"]}}',
  },
  args: [
    arg.text('topic', { required: true, positional: { label: 'topic' }, doc: 'The topic the record lives under', example: '"auth"' }),
    arg.text('id', { doc: 'Omit to create with a generated id; an existing id merges in place', cli: 'merge into this record (omit to create)', example: '"session-ttl"' }),
    arg.text('kind', { doc: `${KINDS.join(', ')}, set when the record is created`, message: `kind must be one of ${KINDS.join(', ')}`, default: 'note' }),
    arg.text('title', { doc: 'A one-line title', example: '"Sessions expire after 1h"', metavar: 'text' }),
    arg.text('body', { doc: 'At most 64 KiB', cli: 'body (at most 64 KiB)', example: '"Decided with security; see ADR-4"', metavar: 'text' }),
    arg.text('author', { doc: 'Who wrote it', example: '"agent-7"', metavar: 'name' }),
    arg.text('provenance', { doc: 'Where it came from', example: '"PR #42"', metavar: 'text' }),
    arg.list('tags', { doc: 'Tags to add', example: '["security"]', flag: 'tag', metavar: 'tag' }),
    links('add_links'),
    links('remove_links'),
    arg.int('ttl_seconds', { doc: 'Expire after this many seconds (default durable)', cli: 'expire after this long', example: 86400, flag: 'ttl', metavar: 'seconds' }),
    fencingToken(),
    enableWrites(),
  ],
  examples: [
    'sightline remember auth --kind decision --title "Sessions expire after 1h" --link about=file:src/auth/session.ts --enable-writes',
    'sightline remember backlog --id item-7 --body todo --tag todo --enable-writes --json',
  ],
});

export const UPDATE = verb({
  tool: 'update',
  command: 'update',
  title: 'Update memory',
  description:
    'Patch fields, tags and links of an existing memory record; each field is last-writer-wins at a fresh logical tick, so concurrent updates converge. ' +
    "The remaining TTL is kept. A claimed record needs the claim's fencing_token.",
  summary: 'patch fields, tags and links of a memory record (last writer wins per field; TTL kept)',
  guide: { when: 'change one field or tag of a memory record without rewriting it', call: '{key: "memory:backlog/item-7", fields: {body: "done"}, fencing_token: 12}' },
  args: [
    memoryKey(),
    arg.fields('fields', MEMORY_FIELDS, { doc: `Fields to set, last writer wins: ${MEMORY_FIELDS.join(', ')}`, cli: `set a field: ${MEMORY_FIELDS.join(', ')}`, flag: 'field', metavar: 'name=value' }),
    arg.list('add_tags', { doc: 'Tags to add', example: '["done"]', flag: 'tag', metavar: 'tag' }),
    arg.list('remove_tags', { doc: 'Tags to remove', example: '["todo"]', flag: 'untag', metavar: 'tag' }),
    links('add_links'),
    links('remove_links'),
    fencingToken(),
    enableWrites(),
  ],
  examples: ['sightline update memory:backlog/item-7 --field body=done --tag done --untag todo --token 12 --enable-writes'],
});

export const FORGET = verb({
  tool: 'forget',
  command: 'forget',
  title: 'Forget memory',
  description:
    `Delete a memory record now, or with lapse let it expire in lapse_seconds (default ${DEFAULT_LAPSE_SECONDS}) so readers drain; a lapse never shortens a later expiry. ` +
    "Works even when the stored value cannot be decoded. A claimed record needs the claim's fencing_token.",
  summary: 'delete a memory record, or --lapse it so readers drain',
  guide: { when: 'retire a memory record that is wrong or done with', call: '{key: "memory:auth/old-note"}' },
  args: [
    memoryKey(),
    arg.flag('lapse', { doc: 'Expire it in lapse_seconds instead of deleting now', cli: 'expire in --lapse-seconds instead of deleting now' }),
    arg.int('lapse_seconds', { doc: 'The lapse window', example: 60, default: DEFAULT_LAPSE_SECONDS }),
    fencingToken(),
    enableWrites(),
  ],
  examples: ['sightline forget memory:auth/old-note --enable-writes', 'sightline forget memory:backlog/item-7 --lapse --lapse-seconds 30 --enable-writes'],
});

export const RECALL = verb({
  tool: 'recall',
  command: 'recall',
  title: 'Recall a record',
  description:
    "One record by its full key: a memory record's fields, tags, links and remaining life, with link staleness (stale, stale_links, and dangling_links for " +
    "links whose target has no live record); a file or symbol's indexed fields. Every code link carries citation_status. A missing key returns exists: false.",
  summary: 'one record by key, with link staleness and citation_status on code links',
  guide: { when: 'read a memory record and whether the code it links to has moved', call: '{key: "memory:auth/session-ttl"}' },
  args: [
    arg.text('key', { required: true, positional: { label: 'key' }, doc: 'A full key: memory:<topic>/<id>, file:<path> or symbol:<path>#<name>', example: EXAMPLE_KEY }),
    arg.maxTokens('the record', 'a long body is cut, with body_truncated'),
  ],
  examples: ['sightline recall memory:auth/session-ttl', 'sightline recall file:src/auth/session.ts --json'],
});

export const LIST_TOPICS = verb({
  tool: 'list_topics',
  command: 'list-topics',
  title: 'List memory topics',
  description: 'The memory topics of this repository, each with its count of live records: what notes and decisions exist before recalling them.',
  summary: 'memory topics with their live record counts',
  guide: { when: 'see what memory exists for this repository', call: '{}' },
  args: [],
  examples: ['sightline list-topics --json'],
});

export const NEIGHBORS = verb({
  tool: 'neighbors',
  command: 'neighbors',
  title: 'Linked memory',
  description:
    `Walk the links out of a memory record breadth-first (depth at most ${MAX_NEIGHBOR_DEPTH}, at most ${MAX_NEIGHBOR_NODES} nodes; truncated says the cap stopped it). ` +
    'Memory nodes carry their link staleness; a dangling link comes back with exists: false; code nodes carry citation_status.',
  summary: 'walk links out of a memory record, breadth first',
  guide: { when: 'explore the decisions and code linked to a memory record', call: '{key: "memory:auth/session-ttl", depth: 2}' },
  args: [
    memoryKey(),
    arg.text('relation', { doc: 'Follow only links of this relation', example: '"about"', metavar: 'name' }),
    arg.int('depth', { doc: 'Hops', example: 2, default: 1, atMost: MAX_NEIGHBOR_DEPTH }),
    arg.int('max_nodes', { doc: 'Stop after this many nodes', example: 50, default: 50, atMost: MAX_NEIGHBOR_NODES }),
    arg.maxTokens('the walk', 'nodes past it are dropped and truncated is set'),
  ],
  examples: ['sightline neighbors memory:auth/session-ttl --depth 2'],
});

export const SCAN = verb({
  tool: 'scan',
  command: 'scan',
  title: 'Scan in pages',
  description:
    "Page through files, symbols, all memory or one topic's memory in key order, with a continuation_token for the next page. Expired records never appear; " +
    'staleness is not evaluated (stale fields are null): recall a key for it. A token from another scope, or from before the index changed, is refused.',
  summary: `page through ${SCAN_SCOPES.join(', ')} in key order`,
  guide: { when: 'walk every memory record of a topic, or every file, page by page', call: '{scope: "memory_topic", topic: "backlog"}' },
  args: [
    arg.choice('scope', SCAN_SCOPES, { required: true, positional: { label: 'scope' }, doc: "What to page through: files, symbols, all memory, or one topic's memory" }),
    arg.text('topic', { doc: 'The topic of a memory_topic scan', example: '"backlog"' }),
    arg.text('path_prefix', { doc: 'Narrow a files scan to a directory', example: '"src/auth"', metavar: 'dir' }),
    arg.text('continuation_token', { doc: "The previous page's token", cli: "the previous page's continuation_token", example: '"eyJzY29wZSI6..."', flag: 'continue', metavar: 'token' }),
    arg.int('page_size', { doc: 'Items per page', example: 100, default: 100, atMost: MAX_PAGE_SIZE }),
    arg.maxTokens('the page', 'items past it are left for the next page'),
  ],
  examples: ['sightline scan memory_topic --topic backlog --json', 'sightline scan files --path-prefix src --page-size 50'],
});

export const CLAIM = verb({
  tool: 'claim',
  command: 'claim',
  title: 'Claim a record',
  description:
    'Claim a memory record for exclusive authorship: granted returns a fencing_token (strictly increasing) that every later write to it must pass, and the lease. ' +
    `Losing is reported, not thrown: granted false with reason contended, timeout or missing. Omit max_wait_seconds to fail fast; leases default to ${DEFAULT_LEASE_SECONDS} s ` +
    `and are clamped to ${MAX_LEASE_SECONDS} s, so honour the returned lease_expires_at and renew before it.`,
  summary: 'claim a memory record: a fencing token for every later write, and a lease',
  guide: { when: 'take one backlog item so no other agent works on it', call: '{key: "memory:backlog/item-7", owner: "agent-3", lease_seconds: 120}' },
  args: [
    memoryKey(),
    arg.text('owner', { required: true, doc: 'Who claims it', example: '"agent-3"', metavar: 'name' }),
    arg.int('lease_seconds', { doc: 'Lease length', cli: 'lease', example: 120, default: DEFAULT_LEASE_SECONDS, atMost: MAX_LEASE_SECONDS, flag: 'lease', metavar: 'seconds' }),
    arg.int('max_wait_seconds', {
      doc: 'Queue (first in, first out) for up to this long; omit to fail fast',
      cli: 'queue for up to this long (default: fail fast)',
      example: 10,
      flag: 'wait',
      metavar: 'seconds',
    }),
    enableWrites(),
  ],
  examples: ['sightline claim memory:backlog/item-7 --owner agent-3 --lease 120 --enable-writes --json'],
});

export const RENEW_CLAIM = verb({
  tool: 'renew_claim',
  command: 'renew-claim',
  title: 'Renew a claim',
  description:
    'Extend the lease of a claim you hold, keeping its fencing token. granted false with reason superseded means the lease lapsed: stop writing and claim again. ' +
    'Pass lease_seconds: omitted it is the short default, and lease_shortened says when the renew shortened the lease.',
  summary: 'extend a claim you hold (same token); superseded once it lapsed',
  guide: { when: 'keep a claim alive during long work', call: '{key: "memory:backlog/item-7", fencing_token: 12, lease_seconds: 120}' },
  args: [
    memoryKey(),
    heldToken(),
    arg.int('lease_seconds', { doc: 'The new lease, from now', example: 120, flag: 'lease', metavar: 'seconds' }),
    enableWrites(),
  ],
  examples: ['sightline renew-claim memory:backlog/item-7 --token 12 --lease 120 --enable-writes'],
});

export const RELEASE_CLAIM = verb({
  tool: 'release_claim',
  command: 'release-claim',
  title: 'Release a claim',
  description:
    'Release a claim: the next waiter may take it, and unfenced writes are admitted again. The released token stays refused (write everything first). ' +
    'Idempotent; released false carries reason stale, missing or unclaimed.',
  summary: 'release a claim (idempotent); its token stays refused',
  guide: { when: 'hand a backlog item back when done with it', call: '{key: "memory:backlog/item-7", fencing_token: 12}' },
  args: [memoryKey(), heldToken(), enableWrites()],
  examples: ['sightline release-claim memory:backlog/item-7 --token 12 --enable-writes'],
});

export const CLAIM_STATUS = verb({
  tool: 'claim_status',
  command: 'claim-status',
  title: 'Claim status',
  description:
    "Who holds a memory record's claim: claimed, fencing_token, released_fencing_token, owner, is_held (the lease is live), lease_expires_at and queue_depth. " +
    'A point-in-time observation (authoritative: false): only claim grants the right to write, so never gate a write on it.',
  summary: 'who holds a claim and how deep its queue is (not authoritative)',
  guide: { when: 'see who holds a backlog item and how many wait for it', call: '{key: "memory:backlog/item-7"}' },
  args: [memoryKey()],
  examples: ['sightline claim-status memory:backlog/item-7'],
});
