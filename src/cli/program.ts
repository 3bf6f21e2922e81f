/**
 * The command line's verbs, one per engine function, each a thin adapter that
 * parses flags, calls the engine and renders text or --json. Exit codes:
 * 0 ok, 1 internal error, 2 usage (bad argument, missing path), 3 corrupt
 * index, 4 disk refused, 5 a memory write refused by a claim.
 */
import { Command, type CommanderError } from 'commander';
import type { IndexSummary } from '../engine/index.js';
import { VERSION } from '../engine/version.js';
import { registerBrief } from './brief.js';
import { registerContext } from './context.js';
import { registerGraph } from './graph.js';
import { registerInit } from './init.js';
import { registerLive } from './live.js';
import { registerMemory } from './memory.js';
import { progressBar } from './progress.js';
import * as render from './render.js';
import { registerRetrieval } from './retrieval.js';
import { registerDashboard, registerServe } from './serve.js';
import { registerTeam } from './team.js';
import { registerWorkspace } from './workspace.js';
import { addVerb, INDEX } from '../spec/cli.js';
import { common, emit, examples, sayRecovered, sayWaiting, walkFilters, withEngine, type CommonOptions, type WalkFilterFlags } from './verb.js';

/**
 * Commander's own refusals (an unknown option, a bad choice, a missing argument) are usage
 * errors: exit 2, and with --json the one JSON object every failure prints (commander has
 * already said it on stderr).
 */
function usageExit(err: CommanderError): never {
  if (err.exitCode === 0) process.exit(0);
  if (process.argv.includes('--json')) process.stdout.write(JSON.stringify({ status: 'error', error: err.message.replace(/^error: /, '') }) + '\n');
  process.exit(2);
}

export function buildProgram(): Command {
  const program = new Command('sightline')
    .description('Code context for AI coding agents: ranked, budgeted, cited answers about a repository.')
    .version(VERSION)
    .exitOverride(usageExit) // inherited by every verb added below
    .showHelpAfterError()
    .addHelpText('after', examples('sightline search "where are files walked"', 'sightline locate Store --kind definition', 'sightline index --dry-run'));

  common(addVerb(program, INDEX)).action(async (path: string | undefined, o: CommonOptions & WalkFilterFlags & { force?: boolean; dryRun?: boolean; maxMemoryMb?: number }) => {
    await withEngine({ ...o, repo: path ?? o.repo }, async ({ repo }) => {
      const { dryRun, recoveredSentence } = await import('../engine/index.js');
      if (o.dryRun) return emit(o, await dryRun(repo), render.renderDryRun);
      const bar = progressBar();
      const summary: IndexSummary = await repo.index({ force: o.force, onProgress: bar.update, onRecovered: sayRecovered(recoveredSentence), onWait: sayWaiting });
      bar.done();
      emit(o, { status: 'ok', ...summary }, () => render.renderIndexSummary(summary));
    }, { ...walkFilters(o), maxMemoryMB: o.maxMemoryMb });
  });

  registerRetrieval(program);
  registerServe(program);
  registerDashboard(program);
  registerGraph(program);
  registerInit(program);
  registerContext(program);
  registerLive(program);
  registerMemory(program);
  registerBrief(program);
  registerWorkspace(program);
  registerTeam(program);

  return program;
}

