/**
 * What every client session of one server shares: what it serves (one
 * repository's unit, or a workspace of them), the tool-body limit, the call
 * log and the tools on offer. Each session gets its own McpServer (see
 * server.ts) over this one runtime, built for the caller it authenticated as.
 */
import type { Config } from '../config/index.js';
import { VERSION } from '../engine/index.js';
import { UsageMeter, type UsageLedger } from '../budget/index.js';
import { teamUsage } from '../team/index.js';
import type { RepoUnit, Workspace } from '../workspace/index.js';
import { Semaphore } from './concurrency.js';
import { ReadPool } from './read-pool/index.js';
import { checkGrant, grantOn, writesAnywhere, type Authenticator, type Caller } from './grants.js';
import { openToolLog, type ToolLog } from './log.js';
import type { SessionLimits } from './transports/sessions.js';
import { TOOLS, WORKSPACE_TOOLS, type ServerFacts, type ToolDefinition, type WorkspaceToolDefinition } from './tools/index.js';

export const SERVER_NAME = 'sightline';
export const SERVER_VERSION = VERSION;

export type TransportName = 'stdio' | 'http' | 'sse';

/** One repository (`serve --repo`), or every repository of a workspace (`serve --workspace`). */
export type Served = { kind: 'repo'; unit: RepoUnit } | { kind: 'workspace'; workspace: Workspace };

export interface RuntimeOptions {
  served: Served;
  transport: TransportName;
  toolConcurrency: number;
  enableWrites: boolean;
  /** Who a network request is (default: the single token of auth.ts, held by the owner). */
  auth?: Authenticator;
  logFile?: string;
  env?: NodeJS.ProcessEnv;
  /** Notes for the operator, on stderr (never stdout: on stdio it carries the protocol). */
  info: (message: string) => void;
  warn: (message: string) => void;
}

/** The tools one caller is offered. */
export interface OfferedTools {
  repo: ToolDefinition[];
  workspace: WorkspaceToolDefinition[];
  /** Tools this server has that the caller's grants leave out: a call to one is refused by name. */
  withheld: Map<string, string>;
}

export class Runtime {
  /** Bounds heavy tool bodies (context, changed, indexing, …) and every body when there is no read pool. */
  readonly limiter: Semaphore;
  /** Every MCP call from its arrival to its answer, waiting for the index included (no bound: it counts, for a stop's drain). */
  readonly calls = new Semaphore(Number.POSITIVE_INFINITY);
  /** Worker threads answering the pooled tools of MCP sessions (config readWorkers); null: on the main thread. */
  readonly readPool: ReadPool | null;
  readonly log: ToolLog;
  readonly env: NodeJS.ProcessEnv;
  /** This server's usage, or with a team database every server's. */
  readonly usage: UsageLedger;
  readonly server: ServerFacts;
  /** The network transports' cap and idle timeout on client sessions, from the configuration. */
  readonly sessionLimits: SessionLimits;
  /** The server's configuration: the repository's, or the workspace's (the dashboard's session limits, the team database). */
  readonly config: Config;
  /** The tools of this server before grants: mutating ones only with --enable-writes. */
  private readonly repoTools: ToolDefinition[];
  private readonly workspaceTools: WorkspaceToolDefinition[];
  private sessionCount: () => number;

  constructor(readonly options: RuntimeOptions) {
    this.env = options.env ?? process.env;
    const { served } = options;
    const config = (this.config = served.kind === 'repo' ? served.unit.engine.repo.config : served.workspace.config);
    this.usage = config.databaseUrl ? teamUsage(config.databaseUrl) : new UsageMeter();
    this.sessionLimits = { max: config.maxClientSessions, idleMs: config.clientSessionIdleMs };
    this.sessionCount = () => (options.transport === 'stdio' ? 1 : 0);
    const count = () => this.sessionCount();
    const workers = () => this.readPool?.size ?? 0;
    this.server = {
      name: SERVER_NAME,
      version: SERVER_VERSION,
      transport: options.transport,
      tool_concurrency: options.toolConcurrency,
      get read_workers() {
        return workers();
      },
      writes_enabled: options.enableWrites,
      started_at: new Date().toISOString(),
      get open_sessions() {
        return count();
      },
    };
    this.limiter = new Semaphore(options.toolConcurrency);
    this.readPool = ReadPool.start(config.readWorkers, this.server);
    const pool = this.readPool;
    if (pool && served.kind === 'workspace') served.workspace.onUnitClosed((unit) => pool.forget(unit.engine.repo.root));
    this.log = openToolLog(options.logFile, options.warn);
    const offered = (t: { mutating?: boolean }) => options.enableWrites || !t.mutating;
    const workspace = options.served.kind === 'workspace';
    this.workspaceTools = workspace ? WORKSPACE_TOOLS.filter(offered) : [];
    const replaced = new Set(WORKSPACE_TOOLS.map((t) => t.name));
    this.repoTools = TOOLS.filter((t) => offered(t) && !(workspace && replaced.has(t.name)));
  }

  get workspace(): Workspace | null {
    return this.options.served.kind === 'workspace' ? this.options.served.workspace : null;
  }

  /** What the banner names: the repository's root, or the workspace's. */
  describe(): string {
    const { served } = this.options;
    return served.kind === 'repo' ? served.unit.engine.repo.root : `the workspace ${served.workspace.root}`;
  }

  /** Read tools for every caller; mutating ones for a caller who may write somewhere (each call checks the repository). */
  toolsFor(caller: Caller): OfferedTools {
    const may = (t: { mutating?: boolean }) => !t.mutating || writesAnywhere(caller);
    const withheld = new Map<string, string>();
    for (const t of [...this.repoTools, ...this.workspaceTools]) {
      if (!may(t)) withheld.set(t.name, `${t.name} changes the index or memory, and caller ${caller.name} holds read grants only; it needs a write grant (in the tokens file, or \`sightline team grant\` with a team database)`);
    }
    return { repo: this.repoTools.filter(may), workspace: this.workspaceTools.filter(may), withheld };
  }

  /** The repository a call is for, with the caller's grant on it checked: `repo` names one in a workspace. */
  async unitFor(caller: Caller, tool: ToolDefinition, repo: string | undefined): Promise<{ unit: RepoUnit; armed: boolean }> {
    const { served } = this.options;
    const found = served.kind === 'repo' ? { unit: served.unit, armed: true } : await served.workspace.resolve(repo, (id) => grantOn(caller, id) !== null);
    checkGrant(caller, tool, found.unit.id);
    return found;
  }

  /** The transport says how many client sessions it holds. */
  countSessionsWith(count: () => number): void {
    this.sessionCount = count;
  }

  /** Resolves when no call is being answered and no tool body runs or waits, in process or in the read pool. */
  async idle(): Promise<void> {
    await Promise.all([this.calls.idle(), this.limiter.idle(), this.readPool?.idle()]);
  }

  /** Closes the read pool, the log and what is served; the process is about to exit. */
  async close(): Promise<void> {
    await this.readPool?.close();
    this.log.close();
    const { served } = this.options;
    if (served.kind === 'repo') await served.unit.close();
    else await served.workspace.close();
  }
}
