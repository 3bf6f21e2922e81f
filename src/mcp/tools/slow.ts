/**
 * Fault injection for the concurrency tests: a tool whose body sleeps
 * SIGHTLINE_TEST_SLOW_TOOL_MS and reports how many bodies ran at once, measured
 * inside the body. It exists only when that variable is set.
 */
import { defineTool } from './tool.js';

const SLOW_ENV = 'SIGHTLINE_TEST_SLOW_TOOL_MS';
let running = 0;
let peak = 0;

export const slowTool = defineTool({
  name: 'test_slow',
  title: 'Test-only slow tool',
  description: `Sleeps for ${SLOW_ENV} milliseconds and reports the most tool bodies seen running at once. Present only in tests.`,
  guide: { when: '(test only) hold a tool slot for a while', call: '{}' },
  inputSchema: {},
  available: ({ env }) => Boolean(env[SLOW_ENV]),
  run: async (_a, { env }) => {
    running++;
    peak = Math.max(peak, running);
    try {
      await new Promise((resolve) => setTimeout(resolve, Number(env[SLOW_ENV])));
      return { status: 'ok', peak_running: peak };
    } finally {
      running--;
    }
  },
});
