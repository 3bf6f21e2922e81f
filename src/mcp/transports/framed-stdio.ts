/**
 * The stdio transport, one JSON-RPC message per line, with a bound on a
 * line's size that answers instead of hanging up. The SDK's own transport
 * closes when a frame passes 10 MiB, and the server then exits 0 with no
 * word; here an oversized line is skipped to its newline (never held in
 * memory), answered with a JSON-RPC error naming the limit, logged on
 * stderr, and the server reads on.
 */
import process from 'node:process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const MAX_FRAME_BYTES = 10 * 1024 * 1024;
/** Bytes of an oversized frame kept to find its id: the SDK writes `id` last, other clients first. */
const EDGE_BYTES = 1024;
const NEWLINE = 0x0a;
const JSON_RPC_INVALID_REQUEST = -32600;

export class FramedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** Set while skipping an oversized frame: its first and last bytes, and how long it has run. */
  private oversized: { head: Buffer; tail: Buffer; bytes: number } | null = null;

  constructor(
    private readonly warn: (message: string) => void,
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly maxFrameBytes = MAX_FRAME_BYTES,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
  }

  private readonly onData = (chunk: Buffer): void => {
    for (let at = 0; at < chunk.length; ) {
      const newline = chunk.indexOf(NEWLINE, at);
      const piece = chunk.subarray(at, newline < 0 ? chunk.length : newline);
      this.take(piece);
      if (newline < 0) return;
      this.endFrame();
      at = newline + 1;
    }
  };

  private take(piece: Buffer): void {
    if (this.oversized) {
      this.oversized.bytes += piece.length;
      this.oversized.tail = Buffer.concat([this.oversized.tail, piece]).subarray(-EDGE_BYTES);
      return;
    }
    if (this.size + piece.length <= this.maxFrameBytes) {
      this.chunks.push(piece);
      this.size += piece.length;
      return;
    }
    const held = Buffer.concat([...this.chunks, piece]);
    this.oversized = { head: held.subarray(0, EDGE_BYTES), tail: held.subarray(-EDGE_BYTES), bytes: held.length };
    this.chunks = [];
    this.size = 0;
  }

  private endFrame(): void {
    const { oversized } = this;
    const line = oversized ? null : Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    this.oversized = null;
    if (oversized) return this.refuse(oversized);
    if (!line) return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (err) {
      this.onerror?.(err as Error);
      return;
    }
    this.onmessage?.(message);
  }

  private refuse(frame: { head: Buffer; tail: Buffer; bytes: number }): void {
    const id = requestId(frame.tail.toString('utf8'), true) ?? requestId(frame.head.toString('utf8'), false);
    const why = `a message of ${frame.bytes} bytes is over the ${this.maxFrameBytes}-byte limit of one stdio message`;
    this.warn(`refused ${why} (request id ${id === undefined ? 'unknown' : JSON.stringify(id)}); the server goes on`);
    // Without an id there is no request to answer; JSON-RPC then says id null.
    void this.send({ jsonrpc: '2.0', id: id ?? null, error: { code: JSON_RPC_INVALID_REQUEST, message: `${why}: send smaller arguments` } } as unknown as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(message))) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.oversized = null;
    this.onclose?.();
  }
}

/** The request id in a frame's edge bytes: the last `"id":` of the tail, or the first of the head. */
function requestId(text: string, last: boolean): string | number | undefined {
  const found = [...text.matchAll(/"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")/g)];
  const m = last ? found.at(-1) : found[0];
  return m ? (JSON.parse(m[1]!) as string | number) : undefined;
}
