/**
 * stdio: the editor spawns the server and talks over its stdin and stdout.
 * stdout carries only protocol messages; everything else goes to stderr.
 * A message over 10 MiB is refused with a JSON-RPC error, and the server reads on (framed-stdio.ts).
 * SIGINT, SIGTERM and the end of stdin all close the index and exit 0 — Node
 * delivers signals to an idle event loop, so an idle server stops too.
 */
import type { Runtime } from '../runtime.js';
import { createMcpServer } from '../server.js';
import { stopOnSignals, stopper } from '../shutdown.js';
import { FramedStdioTransport } from './framed-stdio.js';

export async function serveStdio(runtime: Runtime): Promise<void> {
  const server = createMcpServer(runtime);
  const stop = stopper(async () => {
    await server.close();
    await runtime.close();
  }, runtime.options.warn);
  stopOnSignals(stop, { SIGINT: 0, SIGTERM: 0 });
  process.stdin.once('end', () => stop(0));
  await server.connect(new FramedStdioTransport(runtime.options.warn));
  runtime.options.info(`MCP server on stdio for ${runtime.context.engine.repo.root}`);
}
