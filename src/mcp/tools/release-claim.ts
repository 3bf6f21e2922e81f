import { releaseClaim } from '../../memory/index.js';
import { heldTokenArg, memoryKeyArg } from './memory-args.js';
import { defineTool } from './tool.js';

export const releaseClaimTool = defineTool({
  name: 'release_claim',
  title: 'Release a claim',
  description:
    'Release a claim: the next waiter may take it, and unfenced writes are admitted again. The released token stays refused (write everything first). ' +
    'Idempotent; released false carries reason stale, missing or unclaimed.',
  mutating: true,
  guide: { when: 'hand a backlog item back when done with it', call: '{key: "memory:backlog/item-7", fencing_token: 12}' },
  inputSchema: {
    key: memoryKeyArg(),
    fencing_token: heldTokenArg(),
  },
  run: (a, { engine }) => releaseClaim(engine.memory, a),
});
