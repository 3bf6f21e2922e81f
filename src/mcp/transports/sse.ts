/**
 * The older HTTP+SSE transport, for clients that need it: GET /sse opens the
 * event stream (one session and McpServer per stream), and the client posts
 * its messages to /messages?sessionId=… as the stream's first event says.
 * Sessions expire when idle and are capped (sessions.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { Caller } from '../grants.js';
import type { Runtime } from '../runtime.js';
import { createMcpServer } from '../server.js';
import { reject, type Routes } from './network.js';
import { SessionTable } from './sessions.js';

export const SSE_ENDPOINT = '/sse';
export const SSE_MESSAGES = '/messages';

export function sseRoutes(runtime: Runtime): Routes {
  const sessions = new SessionTable<{ transport: SSEServerTransport; server: McpServer; caller: Caller }>(runtime.sessionLimits, ({ server }) => server.close());
  return {
    endpoint: SSE_ENDPOINT,
    sessions: () => sessions.size,
    async handle(req, res, url, body, caller) {
      if (url.pathname === SSE_ENDPOINT) {
        if (req.method !== 'GET') {
          reject(res, 405, `open the event stream with GET ${SSE_ENDPOINT}`);
          return true;
        }
        if (sessions.full) {
          sessions.refuse(res);
          return true;
        }
        const transport = new SSEServerTransport(SSE_MESSAGES, res);
        const server = createMcpServer(runtime, caller);
        sessions.add(transport.sessionId, { transport, server, caller });
        transport.onclose = () => sessions.forget(transport.sessionId);
        await server.connect(transport);
        return true;
      }
      if (url.pathname === SSE_MESSAGES) {
        if (req.method !== 'POST') {
          reject(res, 405, `post messages to ${SSE_MESSAGES}?sessionId=<id>`);
          return true;
        }
        const session = sessions.use(url.searchParams.get('sessionId') ?? '');
        if (session && session.caller.name !== caller.name) reject(res, 403, 'this stream was opened by another caller; open your own with GET ' + SSE_ENDPOINT);
        else if (session) await session.transport.handlePostMessage(req, res, body);
        else reject(res, 404, `unknown session; open a new stream with GET ${SSE_ENDPOINT}`);
        return true;
      }
      return false;
    },
    close: () => sessions.closeAll(),
  };
}
