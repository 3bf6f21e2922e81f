import { renewClaim } from '../../memory/index.js';
import { positiveInt } from './args.js';
import { heldTokenArg, memoryKeyArg } from './memory-args.js';
import { defineTool } from './tool.js';

export const renewClaimTool = defineTool({
  name: 'renew_claim',
  title: 'Renew a claim',
  description:
    'Extend the lease of a claim you hold, keeping its fencing token. granted false with reason superseded means the lease lapsed: stop writing and claim again. ' +
    'Pass lease_seconds: omitted it is the short default, and lease_shortened says when the renew shortened the lease.',
  mutating: true,
  guide: { when: 'keep a claim alive during long work', call: '{key: "memory:backlog/item-7", fencing_token: 12, lease_seconds: 120}' },
  inputSchema: {
    key: memoryKeyArg(),
    fencing_token: heldTokenArg(),
    lease_seconds: positiveInt('lease_seconds', 120).describe('The new lease, from now.'),
  },
  run: (a, { engine }) => renewClaim(engine.memory, a),
});
