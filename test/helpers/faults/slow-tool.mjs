/**
 * Fault injection for the concurrency and shutdown tests, preloaded with
 * `--import` (see `slowToolEnv` in ../cli.ts): adds a tool `test_slow` to the
 * built server's tool list before the CLI starts, whose body sleeps
 * $FAULT_SLOW_TOOL_MS and reports the most bodies it saw running at once. It
 * is registered like every other tool, behind the same concurrency bound;
 * production code knows nothing of it.
 */
const ms = Number(process.env.FAULT_SLOW_TOOL_MS);
if (ms > 0) {
  // The bundled CLI's own tool list (scripts/bundle.mjs), not tsc's copy in dist/src/mcp, which it never loads.
  const { TOOLS, defineTool } = await import(new URL('../../../dist/src/cli/mcp-tools.js', import.meta.url).href);
  let running = 0;
  let peak = 0;
  TOOLS.push(
    defineTool({
      name: 'test_slow',
      title: 'Test-only slow tool',
      description: `Sleeps ${ms} ms and reports the most tool bodies seen running at once.`,
      guide: { when: '(test only) hold a tool slot for a while', call: '{}' },
      inputSchema: {},
      run: async () => {
        running++;
        peak = Math.max(peak, running);
        try {
          await new Promise((resolve) => setTimeout(resolve, ms));
          return { status: 'ok', peak_running: peak };
        } finally {
          running--;
        }
      },
    }),
  );
}
