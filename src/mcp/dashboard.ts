/**
 * The dashboard's way into this server: the repositories a caller may see
 * (the one served, or a workspace's, filtered by the caller's grants as
 * every tool call is), and their tools: the same definitions, checked
 * against the same strict schemas, waiting for the index and running inside
 * the same tool-body limit as an agent's call (runWhenReady), but neither
 * logged nor metered (a person looking is not an agent's call) and answered
 * from the index as it is, so a file changed on disk shows stale instead of
 * being re-indexed.
 */
import { SightlineError, usageError } from '../errors/index.js';
import type { DashboardContext, Repositories, RepoView } from '../web/index.js';
import type { RepoUnit } from '../workspace/index.js';
import { grantOn, mayRead, type Authenticator, type Caller } from './grants.js';
import type { Runtime } from './runtime.js';
import { runWhenReady } from './server.js';
import { strictInput, TOOLS } from './tools/index.js';

/** The read-only tools, whatever --enable-writes says: the dashboard never writes. */
const READ_TOOLS = new Map(TOOLS.filter((t) => !t.mutating).map((t) => [t.name, t]));

const NOTHING_REGISTERED = 'no repository is registered in this workspace yet (or none you are granted): add one with `sightline workspace add <path> --workspace <root>` or an agent\'s add_repo, then reload';

function view(runtime: Runtime, unit: RepoUnit): RepoView {
  const looking = unit.engine.asIs();
  return {
    id: unit.id,
    repo: looking.repo,
    job: looking.job,
    async runTool(name, args, session) {
      const tool = READ_TOOLS.get(name);
      if (!tool) throw new SightlineError('internal', `the dashboard asked for ${name}, which is no read-only tool`);
      const parsed = strictInput(tool).safeParse(args);
      if (!parsed.success) throw usageError(parsed.error.issues.map((i) => i.message).join('; '));
      const context = { engine: looking, server: runtime.server, usage: runtime.usage, upkeep: unit.upkeep, session };
      return runWhenReady(runtime, tool, parsed.data, context);
    },
  };
}

/** `auth` is the MCP endpoint's: the dashboard signs in the same tokens, and shows each caller what its grants let it read. */
export function dashboardContext(runtime: Runtime, auth: Authenticator, toolLog: string | undefined): DashboardContext<Caller> {
  const { served } = runtime.options;
  return {
    authenticate(authorization) {
      const caller = auth.authenticate(authorization);
      // Serving one repository, a caller granted none of it has nothing to see here; a workspace may yet register theirs.
      return caller !== null && (served.kind === 'workspace' || grantOn(caller, served.unit.id) !== null) ? caller : null;
    },
    async repositories(caller): Promise<Repositories> {
      if (served.kind === 'repo') {
        const { unit } = served;
        return { status: 'ok', workspace: null, repositories: [{ id: unit.id, root: unit.engine.repo.root, files: null, job: unit.engine.job.snapshot().status, problem: null }] };
      }
      const rows = await served.workspace.list(mayRead(caller));
      const repositories = rows.map((r) => ({ id: r.id, root: r.indexed_root, files: r.file_count, job: r.job, problem: r.problem }));
      const none = repositories.length === 0 ? { retrieval_phase: 'nothing_registered' as const, note: NOTHING_REGISTERED } : {};
      return { status: 'ok', workspace: served.workspace.root, repositories, ...none };
    },
    async repository(caller, id) {
      const { unit, armed } = served.kind === 'repo' ? { unit: served.unit, armed: true } : await served.workspace.resolve(id, mayRead(caller));
      if (id !== undefined && id !== unit.id) throw new SightlineError('not_found', `this server shows the repository ${unit.id}, not ${JSON.stringify(id)}`);
      if (!armed) throw usageError(`the code index of ${unit.id} was reset; add_repo (or \`sightline workspace add\`) indexes it again`);
      return view(runtime, unit);
    },
    sessions: { idleMs: runtime.config.dashboardSessionIdleMs, maxMs: runtime.config.dashboardSessionMaxMs },
    toolLog,
    warn: runtime.options.warn,
  };
}
