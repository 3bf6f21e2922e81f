import { forget } from '../../memory/index.js';
import { flag, positiveInt } from './args.js';
import { fencingTokenArg, memoryKeyArg } from './memory-args.js';
import { defineTool } from './tool.js';

export const forgetTool = defineTool({
  name: 'forget',
  title: 'Forget memory',
  description:
    'Delete a memory record now, or with lapse let it expire in lapse_seconds (default 60) so readers drain; a lapse never shortens a later expiry. ' +
    'Works even when the stored value cannot be decoded. A claimed record needs the claim\'s fencing_token.',
  mutating: true,
  guide: { when: 'retire a memory record that is wrong or done with', call: '{key: "memory:auth/old-note"}' },
  inputSchema: {
    key: memoryKeyArg(),
    lapse: flag('lapse').describe('Expire it in lapse_seconds instead of deleting now.'),
    lapse_seconds: positiveInt('lapse_seconds', 60).describe('The lapse window (default 60).'),
    fencing_token: fencingTokenArg(),
  },
  run: (a, { engine }) => forget(engine.memory, a),
});
