/**
 * A read-pool worker: answers pooled tools (search, locate, read, outline,
 * list_files) one question at a time, each over its own read-only connection
 * to the repository's index, pinned to the writer's index version in one read
 * transaction. It never writes: session bookkeeping is journaled and sent
 * back, outdated citations come back as the paths to index again, and a
 * damaged index as the error, for the main thread to act on.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { adoptRankTable, UsageMeter } from '../../budget/index.js';
import { OutdatedCitations } from '../../cite/index.js';
import type { Config } from '../../config/index.js';
import { citationProbe, engineOver, Repo, type Engine } from '../../engine/index.js';
import { isCorruption, usageError } from '../../errors/index.js';
import { ownAnswerCacheStats } from '../../search/index.js';
import { Store, type SessionJournal } from '../../store/index.js';
import { pooledBody } from '../tools/pooled.js';
import type { ToolContext } from '../tools/tool.js';
import { renderAnswer } from '../result.js';
import { toWire, type ConfigureRepo, type ReadQuestion, type ReadReply, type ToWorker, type WorkerStart } from './protocol.js';
import { warmUp } from './warm-up.js';
import { writerRefuse } from './writer-call.js';

/** What `health` would say (pooled tools never ask, but a ToolContext carries it), and the channel to the writer. */
const { facts, writer, ranks } = workerData as WorkerStart;
if (ranks) adoptRankTable(ranks); // the server's one copy of the token rank table, not a read of its own
const refuseOnWriter = writerRefuse(writer);
const usage = new UsageMeter();

interface Reader {
  repo: Repo;
  engine: Engine;
  /** The session journal of the connection open now (none before the first question opens it). */
  journal: { current: SessionJournal | null };
  /** The index file's inode when opened: a rebuilt index is a new file, and the reader opens it anew. */
  inode: number;
}

const readers = new Map<string, Reader>();
const configs = new Map<string, Config>();
/** The current question's freshness round: one question at a time, so one flag serves the engine's citing. */
let refuseOutdated = false;

function openReader(root: string, config: Config): Reader {
  const journal: Reader['journal'] = { current: null };
  const repo = Repo.reader(root, config, (dbPath) => {
    const opened = Store.openReadOnly(dbPath, refuseOnWriter);
    journal.current = opened.journal;
    return opened.store;
  });
  const engine = engineOver(repo, async (build) => build(citationProbe(repo, { refuseOutdated })));
  return { repo, engine, journal, inode: inodeOf(repo.dbPath) };
}

function inodeOf(file: string): number {
  return fs.statSync(file, { throwIfNoEntry: false })?.ino ?? -1;
}

/** The reader of `root`, opened anew when its index file was replaced (a damaged one rebuilt). */
function readerFor(question: Pick<ReadQuestion, 'root' | 'config'>): Reader {
  if (question.config) configs.set(question.root, question.config);
  const config = configs.get(question.root);
  if (!config) throw new Error(`read pool: no configuration was sent for ${question.root}`);
  let reader = readers.get(question.root);
  if (reader && reader.inode !== inodeOf(reader.repo.dbPath)) {
    reader.repo.close();
    reader = undefined;
  }
  if (!reader) readers.set(question.root, (reader = openReader(question.root, config)));
  return reader;
}

async function answer(question: ReadQuestion): Promise<ReadReply> {
  const { id } = question;
  let reader: Reader | null = null;
  // What every reply carries back: the journaled session writes, and how this worker's answer cache serves.
  const writes = () => ({
    writes: reader?.journal.current?.drain() ?? [],
    ...(reader?.journal.current ? { cache: ownAnswerCacheStats(reader.repo.store) } : {}),
  });
  try {
    const run = pooledBody(question.tool); // the body alone: its face (zod) stays on the main thread
    if (!run) throw usageError(`${question.tool} is not answered by the read pool`);
    reader = readerFor(question);
    const { engine } = reader;
    const context: ToolContext = { engine, server: facts, usage, session: question.session };
    refuseOutdated = question.refuseOutdated;
    const envelope = await engine.repo.store.readPinned(question.version, async () => run(question.args, context));
    return { id, ...writes(), kind: 'answer', answer: renderAnswer(envelope, question.phase) };
  } catch (err) {
    if (err instanceof OutdatedCitations) return { id, ...writes(), kind: 'outdated', paths: err.paths };
    const sent: ReadReply = { id, ...writes(), kind: 'error', error: toWire(err) };
    if (reader && isCorruption(err)) {
      // The main thread moves the file aside and rebuilds; this connection must not outlive it.
      reader.repo.close();
      readers.delete(question.root);
    }
    return sent;
  }
}

/** A repository no longer served: its connection closes now, not when the server stops. */
function forget(root: string): void {
  readers.get(root)?.repo.close();
  readers.delete(root);
  configs.delete(root);
}

/**
 * A repository configured ahead of its first question: its index is opened now, where it exists
 * (a first pass may not have made it yet; the first question then opens it), and the thread warms
 * up on it until a real question comes (warm-up.ts).
 */
async function configure({ configure: root, config }: ConfigureRepo): Promise<void> {
  configs.set(root, config);
  let reader: Reader;
  try {
    reader = readerFor({ root });
    void reader.repo.store;
  } catch {
    readers.delete(root);
    return;
  }
  // Best effort: a question that fails here fails the same way when asked for real, and is reported then.
  await warmUp(reader.engine, () => asked).catch(() => undefined);
}

const port = parentPort!;
/** Messages are handled in arrival order, so a forget never closes a connection a question is still reading. */
let handled: Promise<void> = Promise.resolve();
/** Whether a question has come: the warm-up stops at the first. */
let asked = false;
port.on('message', (message: ToWorker) => {
  if ('tool' in message) asked = true;
  handled = handled
    .then(async () => {
      if ('forget' in message) return forget(message.forget);
      if ('configure' in message) return configure(message);
      port.postMessage(await answer(message));
    })
    .catch((err: unknown) => {
      setImmediate(() => {
        throw err; // uncaught: the worker stops and the pool replaces it (index.ts lose)
      });
    });
});
