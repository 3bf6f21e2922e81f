/**
 * What every repository verb shares: the common flags, opening the
 * repository, printing text or one JSON object, and mapping errors to exit
 * codes (0 ok, 1 internal error, 2 usage, 3 corrupt index, 4 disk refused, 5 claim conflict).
 *
 * The CLI's start path: this file and every verb's declaration load only
 * commander, src/spec's cli door and leaf files of constants. What a verb runs
 * (the engine, the MCP server, a workspace) is imported when its action runs,
 * so `sightline --version` or `--help` does not load the engine
 * (test/cli/start.test.ts checks which modules load).
 */
import fs from 'node:fs';
import { Option, type Command } from 'commander';
import type { Config } from '../config/index.js';
import type { RefineEnvelope } from '../budget/index.js';
import type { Engine, Recovered } from '../engine/index.js';
import { describeError, exitCodeOf } from '../errors/index.js';
import { renderRefine } from './render-budget.js';
import { progressBar } from './progress.js';
import * as render from './render.js';

export interface EmbedderFlags {
  embedder?: Config['embedder'];
  modelDir?: string;
}

export interface CommonOptions extends EmbedderFlags {
  repo: string;
  /** --store: the team database (config databaseUrl). */
  store?: string;
  json?: boolean;
  config?: string;
}


/** Flag parsing and help examples are the spec's, for the verbs it does not declare too. */
export { collect, examples, parsePositiveInt as positiveInt } from '../spec/cli.js';

function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : text + '\n');
}

export function emit<T>(options: Pick<CommonOptions, 'json'>, value: T, text: (v: T) => string): void {
  print(options.json ? JSON.stringify(value) : text(value));
}

export function fail(err: unknown, json: boolean | undefined): never {
  const message = describeError(err);
  if (json) print(JSON.stringify({ status: 'error', error: message }));
  process.stderr.write(`sightline: ${message}\n`);
  if (process.env.SIGHTLINE_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  process.exit(exitCodeOf(err));
}

/** Opens the repository's engine, runs the verb, closes the index, maps errors to exit codes. */
export async function withEngine(options: CommonOptions, body: (engine: Engine) => Promise<void> | void, openFlags = {}): Promise<void> {
  let engine: Engine | undefined;
  try {
    // Answers are counted: the rank table is read on the thread pool while the engine loads.
    void import('../budget/ranks.js').then((ranks) => ranks.readRankTableSoon(), () => {}); // a chunk that cannot load fails the engine's import below
    const { openEngine } = await import('../engine/index.js');
    engine = openEngine(options.repo, { configPath: options.config, flags: { ...embedderFlags(options), databaseUrl: options.store, ...openFlags } });
    await body(engine);
  } catch (err) {
    await engine?.close().catch(() => {});
    fail(err, options.json);
  }
  await engine.close();
}

/** Said once when another process holds the repository's index lock, so a waiting verb is not mistaken for a hung one. */
export function sayWaiting(holder: { pid: number; host: string }): void {
  process.stderr.write(`sightline: waiting for another indexer (pid ${holder.pid} on ${holder.host}) to finish with this repository\n`);
}

/** Said on stderr when `index --force` found the index damaged (the sentence is the engine's). */
export function sayRecovered(sentence: (r: Recovered) => string): (r: Recovered) => void {
  return (r) => process.stderr.write(`sightline: ${sentence(r)}\n`);
}

/** Before a query: the first index built in the foreground (with a progress bar), then the query embedder started. */
export async function readyToQuery(engine: Engine): Promise<void> {
  if (!engine.repo.hasIndex()) {
    const bar = progressBar();
    // A file without a finished pass is one an upgrade reset (its next pass rewrites what changed form) or a stopped pass left.
    const why = fs.existsSync(engine.repo.dbPath) ? 'the index is not complete (upgraded to a new version, or its pass was stopped)' : 'no index yet';
    process.stderr.write(process.stderr.isTTY ? '' : `sightline: ${why}; indexing first\n`);
    const summary = await engine.indexIfMissing({ onProgress: bar.update, onWait: sayWaiting });
    bar.done();
    if (summary && process.stderr.isTTY) process.stderr.write(render.renderIndexSummary(summary) + '\n');
  }
  await engine.whenReady();
}

/** For clients that cannot pass flags: --repo wins, then this variable, then the current directory. */
export const REPO_ENV = 'SIGHTLINE_REPO';

/** The --repo option of every verb that opens a repository. */
export function repoOption(): Option {
  return new Option('--repo <path>', 'repository root').env(REPO_ENV).default('.');
}

export function common(cmd: Command): Command {
  return storeOption(embedderOptions(cmd.addOption(repoOption()).option('--config <file>', 'config file (default: <repo>/sightline.config.json)'))).option(
    '--json',
    'print one JSON object instead of text',
  );
}

/** --store: memory and claims in a team database instead of the index file (docs/team.md). */
export function storeOption(cmd: Command): Command {
  return cmd.option('--store <url>', 'keep memory and claims in PostgreSQL, e.g. postgres://user@db:5432/sightline (env SIGHTLINE_DATABASE_URL; default: the local index file)');
}

/** The embedder flags, for every verb that opens a repository (serve and watch too). */
export function embedderOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--embedder <name>', 'semantic retrieval: builtin, onnx, http or none (docs/semantic.md)').choices(['builtin', 'onnx', 'http', 'none']))
    .option('--model-dir <dir>', 'the onnx embedder\'s model folder');
}

/** The walk's filters, which `index` and `workspace add` take alike (a repository is walked the same way either way). */
export interface WalkFilterFlags {
  gitignore: boolean;
  include?: string[];
  exclude?: string[];
  maxFileBytes?: number;
}

/** The filters as configuration: --no-gitignore turns the rules off, its absence leaves the configured value. */
export function walkFilters(o: WalkFilterFlags): { gitignore?: false; include?: string[]; exclude?: string[]; maxFileBytes?: number } {
  return { gitignore: o.gitignore === false ? false : undefined, include: o.include, exclude: o.exclude, maxFileBytes: o.maxFileBytes };
}

export function embedderFlags(o: EmbedderFlags): Partial<Config> {
  return { embedder: o.embedder, modelDir: o.modelDir };
}

/** Calls without --session share one (or SIGHTLINE_SESSION's), so the gate opens on the CLI too after refusals in a row. */
export function gateSession(o: { session?: string }): string {
  return o.session ?? (process.env.SIGHTLINE_SESSION?.trim() || 'cli');
}

/** Renders an answer, or the gate's refine answer in its place. */
export function orRefine<T>(text: (v: T) => string): (v: T | RefineEnvelope) => string {
  return (v) => ((v as { status: string }).status === 'refine' ? renderRefine(v as RefineEnvelope) : text(v as T));
}
