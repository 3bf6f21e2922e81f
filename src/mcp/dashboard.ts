/**
 * The dashboard's way into this server's tools: the same definitions, checked
 * against the same strict schemas, waiting for the index and running inside
 * the same tool-body limit as an agent's call, but neither logged nor metered
 * (a person looking is not an agent's call) and answered from the index as it
 * is, so a file changed on disk shows stale instead of being re-indexed.
 */
import { SightlineError, usageError } from '../errors/index.js';
import type { DashboardContext } from '../web/index.js';
import type { Runtime } from './runtime.js';
import { strictInput, TOOLS } from './tools/index.js';

/** The read-only tools, whatever --enable-writes says: the dashboard never writes. */
const READ_TOOLS = new Map(TOOLS.filter((t) => !t.mutating).map((t) => [t.name, t]));

/** The dashboard shows one repository: `serve --repo` or the dashboard verb (a workspace server does not mount it). */
export function dashboardContext(runtime: Runtime, bearer: (authorization: string | undefined) => boolean, toolLog: string | undefined): DashboardContext {
  const { served } = runtime.options;
  if (served.kind !== 'repo') throw new SightlineError('internal', 'the dashboard shows one repository; a workspace server does not mount it');
  const { unit } = served;
  const looking = unit.engine.asIs();
  return {
    repo: looking.repo,
    job: looking.job,
    bearer,
    toolLog,
    warn: runtime.options.warn,
    async runTool(name, args, session) {
      const tool = READ_TOOLS.get(name);
      if (!tool) throw new SightlineError('internal', `the dashboard asked for ${name}, which is no read-only tool`);
      const parsed = strictInput(tool).safeParse(args);
      if (!parsed.success) throw usageError(parsed.error.issues.map((i) => i.message).join('; '));
      if (tool.readsIndex) {
        const building = await looking.whenReady();
        if (building) return building;
      }
      const context = { engine: looking, server: runtime.server, env: runtime.env, usage: runtime.usage, upkeep: unit.upkeep, session };
      return runtime.limiter.run(() => tool.run(parsed.data, context));
    },
  };
}
