/**
 * stdio: the editor spawns the server and talks over its stdin and stdout.
 * stdout carries only protocol messages; everything else goes to stderr.
 * A message over 10 MiB is refused with a JSON-RPC error, and the server reads on (framed-stdio.ts).
 * SIGINT, SIGTERM and the end of stdin all let the calls in flight answer
 * (a client may close stdin right after its last request), close the index
 * and exit 0 — Node delivers signals to an idle event loop, so an idle server
 * stops too.
 */
import type { Runtime } from '../runtime.js';
import { OWNER } from '../grants.js';
import { createMcpServer } from '../server.js';
import { drained, stopOnSignals, stopper } from '../shutdown.js';
import { FramedStdioTransport } from './framed-stdio.js';

export async function serveStdio(runtime: Runtime): Promise<void> {
  const server = createMcpServer(runtime, OWNER); // the process that spawned the server holds every grant
  const stop = stopper(async () => {
    await drained(runtime);
    await new Promise((resolve) => process.stdout.write('', resolve)); // written out before the process exits
    await server.close();
    await runtime.close();
  }, runtime.options.warn);
  stopOnSignals(stop, { SIGINT: 0, SIGTERM: 0 });
  process.stdin.once('end', () => stop(0));
  await server.connect(new FramedStdioTransport(runtime.options.warn));
  runtime.options.info(`MCP server on stdio for ${runtime.describe()}`);
}
