/**
 * Streamable HTTP at /mcp: one session (and one McpServer) per client,
 * opened by an initialize request and named by the mcp-session-id header.
 * Sessions expire when idle and are capped (sessions.ts).
 */
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Caller } from '../grants.js';
import type { Runtime } from '../runtime.js';
import { createMcpServer } from '../server.js';
import { reject, type Routes } from './network.js';
import { SessionTable } from './sessions.js';

export const HTTP_ENDPOINT = '/mcp';

export function streamableHttpRoutes(runtime: Runtime): Routes {
  const sessions = new SessionTable<{ transport: StreamableHTTPServerTransport; server: McpServer; caller: Caller }>(runtime.sessionLimits, ({ server }) => server.close());
  return {
    endpoint: HTTP_ENDPOINT,
    sessions: () => sessions.size,
    async handle(req, res, url, body, caller) {
      if (url.pathname !== HTTP_ENDPOINT) return false;
      const id = req.headers['mcp-session-id'];
      if (id !== undefined) {
        const session = typeof id === 'string' ? sessions.use(id) : undefined;
        if (session && session.caller.name !== caller.name) reject(res, 403, 'this session was opened by another caller; open your own with an initialize request');
        else if (session) await session.transport.handleRequest(req, res, body);
        else reject(res, 404, 'unknown or expired session; send a new initialize request without mcp-session-id');
        return true;
      }
      if (sessions.full) {
        sessions.refuse(res);
        return true;
      }
      // No session yet: a fresh transport answers; only an initialize request leaves it with a session to keep.
      const server = createMcpServer(runtime, caller);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sessionId) => sessions.add(sessionId, { transport, server, caller }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.forget(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      if (!transport.sessionId) await server.close();
      return true;
    },
    close: () => sessions.closeAll(),
  };
}
