/**
 * The dashboard's JSON API. Each route is one engine function or one
 * read-only tool run as an agent would call it (RepoView.runTool: the tool's
 * own schema, readiness wait and limit), so the page shows exactly what
 * agents get and no query is implemented twice. GET for views, POST (a JSON
 * body) for search and context.
 */
import { randomUUID } from 'node:crypto';
import { contents, doctor, dryRun, embedderState, type IndexJob, type Repo } from '../engine/index.js';
import { usageError } from '../errors/index.js';
import type { SessionLimits } from './session.js';
import { summarizeToolLog } from './tool-log.js';

/** One repository as the dashboard shows it, answered from its index as it is (a changed file shows stale). */
export interface RepoView {
  id: string;
  repo: Repo;
  job: IndexJob;
  /** Runs one read-only tool on this repository as an agent's call runs. */
  runTool(name: string, args: Record<string, unknown>, session: string): Promise<object>;
}

/** What `/api/repositories` answers: the repositories the caller may see, and the workspace's root in workspace mode. */
export interface Repositories {
  status: 'ok';
  /** Null for a server of one repository. */
  workspace: string | null;
  repositories: { id: string; root: string | null; files: number | null; job: string; problem: string | null }[];
  /** In a workspace where the caller sees no repository: what to do about it. */
  retrieval_phase?: 'nothing_registered';
  note?: string;
}

/** What the dashboard needs of the server it runs on; `C` is a caller as its authenticator names one. */
export interface DashboardContext<C> {
  /** The caller an Authorization header names (the MCP endpoint's check), or null: no one this dashboard shows anything to. */
  authenticate(authorization: string | undefined): C | null;
  repositories(caller: C): Promise<Repositories>;
  /** The repository `id` names (or the only one, without it) among those `caller` may see; not_found otherwise. */
  repository(caller: C, id: string | undefined): Promise<RepoView>;
  /** When a sign-in ends. */
  sessions: SessionLimits;
  /** The ndjson tool log to chart, when there is one. */
  toolLog?: string;
  warn(message: string): void;
}

export interface ApiRequest {
  query: URLSearchParams;
  body: unknown;
  /** The dashboard session: the gate counts refusals per session, as it does per agent. */
  session: string;
  toolLog?: string;
}

type Handler = (view: RepoView, req: ApiRequest) => Promise<object> | object;

/** Claims looked up at most, one record each (memory keeps no list of claims). */
const MAX_CLAIM_LOOKUPS = 200;
/** How many of a module's most depended-on files get their callers listed. */
const MODULE_FILES = 5;

function param(req: ApiRequest, name: string): string {
  const value = req.query.get(name)?.trim();
  if (!value) throw usageError(`missing the ${name} parameter`);
  return value;
}

function bodyObject(req: ApiRequest): Record<string, unknown> {
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) throw usageError('send a JSON object');
  return req.body as Record<string, unknown>;
}

async function healthView(view: RepoView, req: ApiRequest) {
  view.job.ensureIndexed(); // a repository without an index starts its first pass, which the page then follows live
  return {
    status: 'ok',
    health: await view.runTool('health', {}, req.session),
    job: view.job.snapshot(),
    retrieval_phase: view.job.retrievalPhase,
    embedder: view.repo.hasIndex() ? embedderState(view.repo) : { name: view.repo.config.embedder, vectors: 0, pending_chunks: 0 },
  };
}

/** A module's most depended-on files (from its overview) and, for each, the files that use it. */
async function moduleView(view: RepoView, req: ApiRequest) {
  const overview = (await view.runTool('explore', { relation: 'overview', scope: param(req, 'path') }, req.session)) as {
    most_depended_on?: { symbol: string; path: string; dependent_files: number }[];
  };
  const files = new Map<string, { path: string; symbols: string[]; dependent_files: number }>();
  for (const d of overview.most_depended_on ?? []) {
    const f = files.get(d.path) ?? { path: d.path, symbols: [], dependent_files: 0 };
    f.symbols.push(d.symbol);
    f.dependent_files = Math.max(f.dependent_files, d.dependent_files);
    files.set(d.path, f);
  }
  const top = [...files.values()].slice(0, MODULE_FILES);
  const callers = await Promise.all(top.map((f) => view.runTool('explore', { relation: 'dependents', anchor: f.path, max_results: 10 }, req.session)));
  return { status: 'ok', overview, files: top.map((f, i) => ({ ...f, dependents: callers[i] })) };
}

async function fileView(view: RepoView, req: ApiRequest) {
  const path = param(req, 'path');
  const [outline, related] = await Promise.all([view.runTool('outline', { path }, req.session), view.runTool('related', { path }, req.session)]);
  return { status: 'ok', path, outline, related };
}

async function usageView(view: RepoView, req: ApiRequest) {
  const stats = (await view.runTool('stats', {}, req.session)) as { usage?: unknown };
  return { status: 'ok', ledger: stats.usage ?? null, log: summarizeToolLog(req.toolLog) };
}

async function memoryView(view: RepoView, req: ApiRequest) {
  const topics = await view.runTool('list_topics', {}, req.session);
  const page = (await view.runTool('scan', { scope: 'memory', page_size: MAX_CLAIM_LOOKUPS }, req.session)) as { items?: { key: string; title?: string | null }[] };
  const records = page.items ?? [];
  const statuses = await Promise.all(records.map((r) => view.runTool('claim_status', { key: r.key }, req.session)));
  const claims = statuses
    .map((s, i) => ({ ...(s as { claimed?: boolean }), title: records[i]!.title ?? null }))
    .filter((s) => s.claimed);
  return { status: 'ok', topics, records: records.length, claims };
}

export const ROUTES: Record<string, { method: 'GET' | 'POST'; handle: Handler }> = {
  '/api/health': { method: 'GET', handle: healthView },
  // Apart from health: its integrity check reads the whole index file, which takes a second on a large one.
  '/api/doctor': { method: 'GET', handle: (view) => doctor(view.repo) },
  '/api/changed': { method: 'GET', handle: (view, req) => view.runTool('changed', {}, req.session) },
  '/api/contents': { method: 'GET', handle: (view) => contents(view.repo) },
  '/api/stats': { method: 'GET', handle: (view, req) => view.runTool('stats', {}, req.session) },
  '/api/dry-run': { method: 'GET', handle: (view) => dryRun(view.repo) },
  '/api/overview': { method: 'GET', handle: (view, req) => view.runTool('explore', { relation: 'overview', ...(req.query.get('scope') ? { scope: req.query.get('scope') } : {}) }, req.session) },
  '/api/module': { method: 'GET', handle: moduleView },
  '/api/file': { method: 'GET', handle: fileView },
  '/api/usage': { method: 'GET', handle: usageView },
  '/api/memory': { method: 'GET', handle: memoryView },
  '/api/search': { method: 'POST', handle: (view, req) => view.runTool('search', bodyObject(req), req.session) },
  // Each bundle is packed for a session of its own, so a person sees it whole every time (receipts would hold back what was sent before).
  '/api/context': { method: 'POST', handle: (view, req) => view.runTool('context', { ...bodyObject(req), session: `dashboard-${randomUUID()}` }, req.session) },
};
