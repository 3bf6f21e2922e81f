/**
 * The read pool: a few worker threads (worker.ts) that answer the pooled
 * tools (search, locate, read, outline, list_files) of MCP sessions, so a
 * synchronous SQLite read never holds the event loop that every session
 * shares. The main thread stays the one writer: it runs the freshness rounds
 * (a file changed on disk is indexed again, then the question asked again),
 * replays the session bookkeeping each answer journaled, and recovers a
 * damaged index (server.ts, on the error a worker sends back); a refusal is
 * counted there too, while the worker waits (writer-call.ts). Questions wait
 * in one queue for the first idle worker. Workers start on demand, up to the
 * pool's size: the first starts when a client has initialized a session with a
 * server of one repository (or with the first pooled question), and another
 * only when a question finds every started worker busy, so a server no client
 * uses, or asked one thing at a time, does not load the engine into threads
 * it does not use. The dashboard never comes here: it answers from its
 * `asIs` engine on the main thread.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { sharedRankTable } from '../../budget/index.js';
import { OutdatedCitations } from '../../cite/index.js';
import type { Config } from '../../config/index.js';
import { embedderSpec } from '../../embed/index.js';
import { bestEffort, freshRounds, type Engine, type IndexReadiness } from '../../engine/index.js';
import { SightlineError } from '../../errors/index.js';
import { noteReaderCache } from '../../search/index.js';
import { replaySessionWrite, type Store } from '../../store/index.js';
import type { ServerFacts, ToolDefinition } from '../tools/index.js';
import { fromWire, type ConfigureRepo, type ForgetRepo, type ReadQuestion, type ReadReply, type WorkerStart } from './protocol.js';
import { answerWriterCalls } from './writer-call.js';
import { Prerendered, rephased, type RenderedAnswer } from '../result.js';

const WORKER_URL = new URL('./worker.js', import.meta.url);

/**
 * A name for each writer connection: its index version counts from where that
 * connection began, so a reopened index could repeat a version a worker's
 * cache already holds for other content.
 */
const CONNECTIONS = new WeakMap<Store, string>();
function connectionOf(store: Store): string {
  let name = CONNECTIONS.get(store);
  if (!name) CONNECTIONS.set(store, (name = randomUUID()));
  return name;
}

interface Asked {
  engine: Engine;
  tool: string;
  args: Record<string, unknown>;
  session: string;
  refuseOutdated: boolean;
  /** The repository's retrieval phase when the question left (set at dispatch). */
  phase?: IndexReadiness;
  resolve: (answer: Prerendered) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Repository roots whose configuration this worker was sent. */
  configured: Set<string>;
  busy: Asked | null;
  /** The main thread's end of the worker's channel for refusal counts (writer-call.ts). */
  writer: MessagePort;
}

/**
 * Whether a worker answers this repository exactly as the main thread would:
 * team memory (PostgreSQL) and a query embedder in a process of its own stay
 * on the main thread, which holds their one connection.
 */
export function answerableOffThread(config: Config): boolean {
  const kind = embedderSpec(config).kind;
  return !config.databaseUrl && (kind === 'none' || kind === 'builtin');
}

export class ReadPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Asked[] = [];
  private readonly idlers: (() => void)[] = [];
  private nextId = 1;
  private closed = false;

  private constructor(
    /** Workers this pool may start: what `health` reports as read_workers. */
    readonly size: number,
    private readonly facts: ServerFacts,
  ) {}

  /** A pool of `size` workers; null for 0, or where the compiled worker is missing (a TypeScript test runner). */
  static start(size: number, facts: ServerFacts): ReadPool | null {
    if (size < 1 || !fs.existsSync(fileURLToPath(WORKER_URL))) return null;
    return new ReadPool(size, facts);
  }

  /** True when this call is the pool's: a pooled tool over a repository a worker answers like the main thread. */
  takes(tool: ToolDefinition, engine: Engine): boolean {
    return !!tool.pooled && answerableOffThread(engine.repo.config);
  }

  /** The tool's answer from a worker, rendered there, after the same freshness rounds the engine runs in process. */
  answer(engine: Engine, tool: ToolDefinition, args: Record<string, unknown>, session: string): Promise<Prerendered> {
    return freshRounds(engine.repo, engine.job, (refuseOutdated) =>
      new Promise<Prerendered>((resolve, reject) => {
        if (this.closed) return reject(new SightlineError('internal', 'the server is stopping; the read pool is closed'));
        this.queue.push({ engine, tool: tool.name, args, session, refuseOutdated, resolve, reject });
        this.dispatch();
      }),
    );
  }

  /**
   * Starts the first worker before the first question, configured for `engine`'s repository: its
   * start (~0.2 s of loading the engine's modules on a 2-core machine) would otherwise be waited
   * for by the session's first search. Called once a client has initialized its session.
   */
  prestart(engine: Engine): void {
    const { root, config } = engine.repo;
    if (this.closed || this.slots.length > 0 || !answerableOffThread(config)) return;
    const slot = this.spawn();
    this.slots.push(slot);
    slot.worker.postMessage({ configure: root, config } satisfies ConfigureRepo);
    slot.configured.add(root);
  }

  /** A repository no longer served (removed from a workspace, or reopened): every worker closes its connection to it. */
  forget(root: string): void {
    for (const slot of this.slots) {
      slot.configured.delete(root); // served again later, perhaps with other settings: its configuration is sent anew
      slot.worker.postMessage({ forget: root } satisfies ForgetRepo);
    }
  }

  /** Resolves when no question is being answered or waiting: what a draining server waits for. */
  idle(): Promise<void> {
    return this.busy() ? new Promise((resolve) => this.idlers.push(resolve)) : Promise.resolve();
  }

  private busy(): boolean {
    return this.queue.length > 0 || this.slots.some((s) => s.busy);
  }

  /** Stops every worker; questions still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const asked of this.queue.splice(0)) asked.reject(new SightlineError('internal', 'the server is stopping; the read pool is closed'));
    await Promise.all(this.slots.map((s) => (s.writer.close(), s.worker.terminate())));
  }

  private spawn(): Slot {
    const { port1, port2 } = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const workerData: WorkerStart = { facts: { ...this.facts }, writer: { port: port2, signal }, ranks: sharedRankTable() };
    const slot: Slot = { worker: new Worker(WORKER_URL, { workerData, transferList: [port2] }), configured: new Set(), busy: null, writer: port1 };
    answerWriterCalls(port1, signal, (session, max) => {
      if (!slot.busy) throw new SightlineError('internal', 'a read worker asked to count a refusal with no question in hand');
      return slot.busy.engine.repo.store.sessions.refuse(session, max);
    });
    slot.worker.unref(); // an idle pool never keeps the process alive
    slot.worker.on('message', (reply: ReadReply) => this.settle(slot, reply));
    slot.worker.on('error', (err) => this.lose(slot, err));
    slot.worker.on('exit', () => this.lose(slot, new Error('a read worker stopped')));
    return slot;
  }

  /** Sends waiting questions to idle workers, starting one when every started worker is busy; the index version is read as each one leaves. */
  private dispatch(): void {
    const idle = this.slots.filter((s) => !s.busy).length;
    for (let i = idle; i < this.queue.length && this.slots.length < this.size; i++) this.slots.push(this.spawn());
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const asked = this.queue.shift();
      if (!asked) break;
      slot.busy = asked;
      const { repo } = asked.engine;
      try {
        const question: ReadQuestion = {
          id: this.nextId++,
          tool: asked.tool,
          args: asked.args,
          session: asked.session,
          root: repo.root,
          version: `${connectionOf(repo.store)}:${repo.store.indexVersion()}`,
          refuseOutdated: asked.refuseOutdated,
          phase: (asked.phase = asked.engine.job.retrievalPhase),
          ...(slot.configured.has(repo.root) ? {} : { config: repo.config }),
        };
        slot.worker.postMessage(question);
        slot.configured.add(repo.root);
      } catch (err) {
        slot.busy = null;
        asked.reject(err as Error);
      }
    }
    if (!this.busy()) this.idlers.splice(0).forEach((resolve) => resolve());
  }

  private settle(slot: Slot, reply: ReadReply): void {
    const asked = slot.busy;
    slot.busy = null;
    if (asked) {
      try {
        const { store } = asked.engine.repo;
        for (const write of reply.writes) bestEffort(() => replaySessionWrite(store.sessions, write));
        if (reply.cache) noteReaderCache(store, `read worker ${this.slots.indexOf(slot)}`, reply.cache);
        if (reply.kind === 'answer') asked.resolve(new Prerendered(this.inPhaseNow(asked, reply.answer)));
        else asked.reject(reply.kind === 'outdated' ? new OutdatedCitations(reply.paths) : fromWire(reply.error));
      } catch (err) {
        asked.reject(err as Error);
      }
    }
    this.dispatch();
  }

  /** The answer for the phase the repository is in now: what the main thread would have sent, had it answered. */
  private inPhaseNow(asked: Asked, answer: RenderedAnswer): RenderedAnswer {
    const now = asked.engine.job.retrievalPhase;
    return now === asked.phase ? answer : rephased(answer, now);
  }

  /** A worker that failed or stopped: its question fails, and the next question that finds no idle worker starts another. */
  private lose(slot: Slot, err: Error): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    slot.busy?.reject(err);
    slot.busy = null;
    slot.writer.close();
    if (!this.closed) this.dispatch();
  }
}
