/**
 * The one call a read worker makes to the writer and waits for: counting a
 * refusal. The count must be read and raised in one step on the writer's
 * connection (SessionTable.refuse), or two workers answering one session at
 * once would read the same count and one refusal would go uncounted; and the
 * gate needs the count before its answer is built. So the worker posts the
 * question on a port of its own and blocks on a shared word until the main
 * thread has answered (Atomics.wait; the main thread never waits on a worker,
 * so this cannot deadlock). Replies carry the question's number, so one that
 * comes after its caller gave up is dropped, not taken for the next.
 */
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { fromWire, toWire, type WireError } from './protocol.js';

export interface WriterAsk {
  seq: number;
  session: string;
  max: number;
}

export type WriterReply = { seq: number } & ({ count: number } | { error: WireError });

/** What a worker is handed at start: its end of the channel and the word the writer flips when it answered. */
export interface WriterChannel {
  port: MessagePort;
  signal: SharedArrayBuffer;
}

/** How long a worker waits for a busy main thread before deciding from what it read (SQLITE_BUSY: bookkeeping is best effort). */
const WAIT_MS = 10_000;

/** The worker's side: a synchronous `refuse` that the writer answers. */
export function writerRefuse({ port, signal }: WriterChannel, waitMs = WAIT_MS): (session: string, max: number) => number {
  const word = new Int32Array(signal);
  let seq = 0;
  return (session, max) => {
    const ask: WriterAsk = { seq: ++seq, session, max };
    Atomics.store(word, 0, 0);
    port.postMessage(ask);
    const deadline = Date.now() + waitMs;
    for (;;) {
      for (let got = receiveMessageOnPort(port); got; got = receiveMessageOnPort(port)) {
        const reply = got.message as WriterReply;
        if (reply.seq !== ask.seq) continue; // a late answer to a question already given up
        if ('error' in reply) throw fromWire(reply.error);
        return reply.count;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw Object.assign(new Error(`the index's writer did not count the refusal within ${waitMs} ms`), { code: 'SQLITE_BUSY' });
      Atomics.wait(word, 0, 0, left);
      Atomics.store(word, 0, 0); // a reply posted before it flipped the word is in the port already: looked for above
    }
  };
}

/** The main thread's side: answers each question on `port` with `refuse`, then wakes the worker. */
export function answerWriterCalls(port: MessagePort, signal: SharedArrayBuffer, refuse: (session: string, max: number) => number): void {
  const word = new Int32Array(signal);
  port.on('message', (ask: WriterAsk) => {
    let reply: WriterReply;
    try {
      reply = { seq: ask.seq, count: refuse(ask.session, ask.max) };
    } catch (err) {
      reply = { seq: ask.seq, error: toWire(err) };
    }
    port.postMessage(reply);
    Atomics.store(word, 0, 1);
    Atomics.notify(word, 0);
  });
  port.unref(); // a waiting channel never keeps the process alive
}
