/**
 * The access log (--access-log): one line per request on stderr, written when
 * the response closes: client address, request line, status. The request line
 * is the client's text, so control characters are stripped before it reaches
 * a terminal.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export function accessLogLine(req: IncomingMessage, status: number): string {
  const requestLine = `${req.method ?? '-'} ${req.url ?? '-'} HTTP/${req.httpVersion}`.replace(CONTROL, '');
  return `${req.socket.remoteAddress ?? '-'} "${requestLine}" ${status}`;
}

export function logAccess(req: IncomingMessage, res: ServerResponse, write: (line: string) => void): void {
  res.once('close', () => write(accessLogLine(req, res.statusCode)));
}
