import { claim, DEFAULT_LEASE_SECONDS, MAX_LEASE_SECONDS } from '../../memory/index.js';
import { positiveInt, text } from './args.js';
import { memoryKeyArg } from './memory-args.js';
import { defineTool } from './tool.js';

export const claimTool = defineTool({
  name: 'claim',
  title: 'Claim a record',
  description:
    'Claim a memory record for exclusive authorship: granted returns a fencing_token (strictly increasing) that every later write to it must pass, and the lease. ' +
    `Losing is reported, not thrown: granted false with reason contended, timeout or missing. Omit max_wait_seconds to fail fast; leases default to ${DEFAULT_LEASE_SECONDS} s ` +
    `and are clamped to ${MAX_LEASE_SECONDS} s, so honour the returned lease_expires_at and renew before it.`,
  mutating: true,
  guide: { when: 'take one backlog item so no other agent works on it', call: '{key: "memory:backlog/item-7", owner: "agent-3", lease_seconds: 120}' },
  inputSchema: {
    key: memoryKeyArg(),
    owner: text('owner', '"agent-3"').describe('Who claims it.'),
    lease_seconds: positiveInt('lease_seconds', 120).describe(`Lease length (default ${DEFAULT_LEASE_SECONDS}, at most ${MAX_LEASE_SECONDS}).`),
    max_wait_seconds: positiveInt('max_wait_seconds', 10).describe('Queue (first in, first out) for up to this long; omit to fail fast.'),
  },
  run: (a, { engine }) => claim(engine.memory, a),
});
