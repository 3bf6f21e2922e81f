/**
 * What every client session of one server shares: the repository and its
 * index job, the tool-body limit, the call log and the tools on offer. Each
 * session gets its own McpServer (see server.ts) over this one runtime.
 */
import { VERSION, type Engine } from '../engine/index.js';
import { UsageMeter } from '../budget/index.js';
import { Semaphore } from './concurrency.js';
import { openToolLog, type ToolLog } from './log.js';
import { TOOLS, type ToolContext, type ToolDefinition } from './tools/index.js';

export const SERVER_NAME = 'sightline';
export const SERVER_VERSION = VERSION;

export type TransportName = 'stdio' | 'http' | 'sse';

export interface RuntimeOptions {
  engine: Engine;
  transport: TransportName;
  toolConcurrency: number;
  enableWrites: boolean;
  logFile?: string;
  env?: NodeJS.ProcessEnv;
  /** Notes for the operator, on stderr (never stdout: on stdio it carries the protocol). */
  info: (message: string) => void;
  warn: (message: string) => void;
}

export class Runtime {
  readonly context: ToolContext;
  readonly limiter: Semaphore;
  readonly log: ToolLog;
  /** The tools this server advertises: mutating ones only with --enable-writes. */
  readonly tools: ToolDefinition[];

  constructor(readonly options: RuntimeOptions) {
    this.context = {
      engine: options.engine,
      env: options.env ?? process.env,
      usage: new UsageMeter(),
      server: {
        name: SERVER_NAME,
        version: SERVER_VERSION,
        transport: options.transport,
        tool_concurrency: options.toolConcurrency,
        writes_enabled: options.enableWrites,
        started_at: new Date().toISOString(),
      },
    };
    this.limiter = new Semaphore(options.toolConcurrency);
    this.log = openToolLog(options.logFile, options.warn);
    this.tools = TOOLS.filter((t) => (options.enableWrites || !t.mutating) && (t.available?.(this.context) ?? true));
  }

  /** Closes the log, stops the watcher and the running pass, and closes the index; the process is about to exit. */
  async close(): Promise<void> {
    this.log.close();
    await this.context.engine.close();
  }
}
