import { claimStatus } from '../../memory/index.js';
import { memoryKeyArg } from './memory-args.js';
import { defineTool } from './tool.js';

export const claimStatusTool = defineTool({
  name: 'claim_status',
  title: 'Claim status',
  description:
    'Who holds a memory record\'s claim: claimed, fencing_token, released_fencing_token, owner, is_held (the lease is live), lease_expires_at and queue_depth. ' +
    'A point-in-time observation (authoritative: false): only claim grants the right to write, so never gate a write on it.',
  guide: { when: 'see who holds a backlog item and how many wait for it', call: '{key: "memory:backlog/item-7"}' },
  inputSchema: { key: memoryKeyArg() },
  run: (a, { engine }) => claimStatus(engine.memory, a),
});
