/**
 * Reading a POST body before any parser sees it, with both bounds a hostile
 * body needs: its size (past it, 413 without reading on) and the nesting of
 * its arrays and objects (a 100,000-deep body overflows recursive validation
 * and drops the socket, so it is refused as a JSON-RPC parse error). The scan
 * for nesting is one linear pass over the bytes; only then is it parsed.
 */
import type { IncomingMessage } from 'node:http';

/** The largest body read, the SDK's own limit for the SSE transport. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The deepest nesting accepted; an MCP message needs a handful of levels, tool arguments a few more. */
export const MAX_JSON_DEPTH = 64;
/** JSON-RPC's code for a body that is not valid JSON. */
export const JSON_RPC_PARSE_ERROR = -32700;

export type Body = { ok: true; value: unknown } | { ok: false; status: 400 | 413; code: number; message: string };

const TOO_LARGE = `a request body may have at most ${MAX_BODY_BYTES} bytes: send smaller arguments`;

function tooLarge(): Body {
  return { ok: false, status: 413, code: -32000, message: TOO_LARGE };
}

function parseError(why: string): Body {
  return { ok: false, status: 400, code: JSON_RPC_PARSE_ERROR, message: `parse error: ${why}` };
}

/** True when arrays and objects nest deeper than `max` (brackets inside strings do not count). */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next byte is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * The body's bytes, or null past MAX_BODY_BYTES. The rest of an oversized body
 * is read and dropped rather than the socket destroyed, so the client is still
 * reading when the 413 comes (the server's request timeout bounds how long).
 */
function readBounded(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd).resume();
      resolve(null);
    };
    const onEnd = () => resolve(Buffer.concat(chunks, size));
    req.on('data', onData).once('end', onEnd).once('error', reject);
  });
}

/** Reads and parses the body of `req` within both bounds. */
export async function readJsonBody(req: IncomingMessage): Promise<Body> {
  const bytes = Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES ? (req.resume(), null) : await readBounded(req);
  if (bytes === null) return tooLarge();
  if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) return parseError(`arrays and objects may nest at most ${MAX_JSON_DEPTH} deep`);
  try {
    return { ok: true, value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch (err) {
    return parseError((err as Error).message);
  }
}
