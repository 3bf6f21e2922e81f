#!/usr/bin/env node
/**
 * The command line: one verb per engine function, each a thin adapter that
 * parses flags, calls the engine and renders text or --json. Exit codes:
 * 0 ok, 1 internal error, 2 usage (bad argument, missing path), 3 corrupt
 * index, 4 disk refused, 5 a memory write refused by a claim.
 */
import { Command, Option, type CommanderError } from 'commander';
import {
  dryRun,
  VERSION,
  type IndexSummary,
  type LocateKind,
  type SearchMode,
} from '../engine/index.js';
import { registerBrief } from './brief.js';
import { registerContext } from './context.js';
import { registerGraph } from './graph.js';
import { registerInit } from './init.js';
import { registerLive } from './live.js';
import { registerMemory } from './memory.js';
import { progressBar } from './progress.js';
import * as render from './render.js';
import { registerDashboard, registerServe } from './serve.js';
import { registerWorkspace } from './workspace.js';
import { collect, common, emit, examples, fail, gateSession, maxTokensOption, orRefine, SESSION_HELP, positiveInt, readyToQuery, sayRecovered, sayWaiting, withEngine, type CommonOptions } from './verb.js';

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

  common(
    program
      .command('index [path]')
      .description('index a repository incrementally (only changed files are read)')
      .option('--force', 'drop the index and rebuild it from scratch')
      .option('--dry-run', 'show what would be indexed, write nothing')
      .option('--no-gitignore', 'ignore .gitignore and .git/info/exclude rules')
      .option('--include <glob>', 'only files matching (repeatable, or comma-separated)', collect)
      .option('--exclude <glob>', 'skip files matching (repeatable, or comma-separated)', collect)
      .option('--max-file-bytes <n>', 'skip files larger than this', positiveInt)
      .addHelpText('after', examples('sightline index', 'sightline index ../other-repo --force', 'sightline index --dry-run --exclude "**/*.min.js"')),
  ).action(async (path: string | undefined, o: CommonOptions & { force?: boolean; dryRun?: boolean; gitignore: boolean; include?: string[]; exclude?: string[]; maxFileBytes?: number }) => {
    const flags = {
      gitignore: o.gitignore === false ? false : undefined,
      include: o.include,
      exclude: o.exclude,
      maxFileBytes: o.maxFileBytes,
    };
    await withEngine({ ...o, repo: path ?? o.repo }, async ({ repo }) => {
      if (o.dryRun) return emit(o, await dryRun(repo), render.renderDryRun);
      const bar = progressBar();
      const summary: IndexSummary = await repo.index({ force: o.force, onProgress: bar.update, onRecovered: sayRecovered, onWait: sayWaiting });
      bar.done();
      emit(o, { status: 'ok', ...summary }, () => render.renderIndexSummary(summary));
    }, flags);
  });

  common(
    program
      .command('search <query...>')
      .description('ranked code for words, identifiers or a regular expression (indexes on first use)')
      .option('-k, --k <n>', 'how many results', positiveInt)
      .option('--files', 'distinct files, best first, each with its best chunk')
      .addOption(new Option('--mode <mode>', 'retrieval: keyword and semantic fused, or one alone').choices(['hybrid', 'keyword', 'semantic']))
      .option('--scope <dir-or-glob>', 'only under this directory or glob')
      .option('--exclude <glob>', 'drop results under these globs (repeatable)', collect)
      .option('--kind <kind>', 'only these file kinds: code, test, doc, config, generated (repeatable)', collect)
      .option('--regex', 'treat the query as a regular expression (RE2 syntax: no backreferences or lookaround), matched line by line')
      .option('--force', 'answer even a very broad query instead of asking to refine it (still trimmed to --max-tokens)')
      .addOption(maxTokensOption('the results'))
      .option('--expand', 'also show the chunks around each result: neighbours, class or module siblings, imported definitions')
      .option('--session <id>', SESSION_HELP)
      .addHelpText('after', examples('sightline search "parse config file"', 'sightline search getUserName --files -k 5', 'sightline search "TODO|FIXME" --regex --scope src', 'sightline search "retry backoff" --json --session task-42', 'sightline search "dates shift by an hour" --mode semantic')),
  ).action(async (words: string[], o: CommonOptions & { k?: number; files?: boolean; mode?: SearchMode; scope?: string; exclude?: string[]; kind?: string[]; regex?: boolean; force?: boolean; maxTokens?: number; expand?: boolean; session?: string }) => {
    await withEngine(o, async (engine) => {
      await readyToQuery(engine);
      const query = words.join(' ');
      const answer = await engine.search({ query, k: o.k, files: o.files, mode: o.mode, scope: o.scope, exclude: o.exclude, kind: o.kind, regex: o.regex, force: o.force, maxTokens: o.maxTokens, expand: o.expand, session: gateSession(o) });
      emit(o, answer, orRefine(render.renderSearch));
    });
  });

  common(
    program
      .command('locate <name>')
      .description('where a symbol is defined and where it is referenced (indexes on first use)')
      .addOption(new Option('--kind <kind>', 'definition, reference or any').choices(['definition', 'reference', 'any']).default('any'))
      .option('--scope <dir-or-glob>', 'only under this directory or glob')
      .option('--max-results <n>', 'cap on results', positiveInt)
      .addOption(maxTokensOption('the results'))
      .option('--force', 'answer even for a name used everywhere instead of asking to refine')
      .option('--session <id>', SESSION_HELP)
      .addHelpText('after', examples('sightline locate Repo', 'sightline locate Store.open --kind definition', 'sightline locate search --kind reference --scope src/cli --session task-42')),
  ).action(async (name: string, o: CommonOptions & { kind: LocateKind; scope?: string; maxResults?: number; maxTokens?: number; force?: boolean; session?: string }) => {
    await withEngine(o, async (engine) => {
      await readyToQuery(engine);
      const answer = await engine.locate({ query: name, kind: o.kind, scope: o.scope, maxResults: o.maxResults, maxTokens: o.maxTokens, force: o.force, session: gateSession(o) });
      emit(o, answer, orRefine(render.renderLocate));
    });
  });

  common(
    program
      .command('outline <file>')
      .description("a file's definitions, nested, with line spans")
      .addOption(maxTokensOption('the answer'))
      .addHelpText('after', examples('sightline outline src/engine/search.ts', 'sightline outline src/big.ts --max-tokens 500 --json')),
  ).action(async (file: string, o: CommonOptions & { maxTokens?: number }) => {
    await withEngine(o, async (engine) => emit(o, await engine.outline(file, { maxTokens: o.maxTokens }), render.renderOutline));
  });

  common(
    program
      .command('read <target>')
      .description('the current text of a symbol or path[:start[-end]], widened to the enclosing block')
      .option('--no-expand', 'keep the exact line range')
      .addOption(maxTokensOption('the text'))
      .option('--force', 'read even a span too big to answer whole, cut to --max-tokens')
      .option('--session <id>', SESSION_HELP)
      .addHelpText('after', examples('sightline read src/cli/main.ts:10-20', 'sightline read Repo', 'sightline read README.md --max-tokens 500', 'sightline read src/big.ts --force --json')),
  ).action(async (target: string, o: CommonOptions & { expand: boolean; maxTokens?: number; force?: boolean; session?: string }) => {
    await withEngine(o, async (engine) => {
      const answer = await engine.read({ target, expand: o.expand, maxTokens: o.maxTokens, force: o.force, session: gateSession(o) });
      emit(o, answer, orRefine(render.renderRead));
    });
  });

  common(
    program
      .command('list-files')
      .description('the indexed files, by glob and language')
      .option('--glob <glob>', 'only paths matching this glob')
      .option('--language <lang>', 'only this language (typescript, python, go, …)')
      .option('--max-results <n>', 'most files on a page (default 200)', positiveInt)
      .addOption(maxTokensOption('the page'))
      .option('--cursor <cursor>', "continue after the previous page: its next_cursor, with the same --glob and --language")
      .addHelpText('after', examples('sightline list-files --glob "src/**/*.ts"', 'sightline list-files --language python --json', 'sightline list-files --max-results 50 --cursor <next_cursor>')),
  ).action(async (o: CommonOptions & { glob?: string; language?: string; maxResults?: number; maxTokens?: number; cursor?: string }) => {
    const options = { glob: o.glob, language: o.language, maxResults: o.maxResults, maxTokens: o.maxTokens, cursor: o.cursor };
    await withEngine(o, async (engine) => emit(o, await engine.listFiles(options), render.renderListFiles));
  });

  common(
    program
      .command('stats')
      .description('what the index holds: files, chunks, symbols, languages, size on disk')
      .addHelpText('after', examples('sightline stats', 'sightline stats --json')),
  ).action(async (o: CommonOptions) => {
    await withEngine(o, (engine) => emit(o, engine.stats(), render.renderStats));
  });

  registerServe(program);
  registerDashboard(program);
  registerGraph(program);
  registerInit(program);
  registerContext(program);
  registerLive(program);
  registerMemory(program);
  registerBrief(program);
  registerWorkspace(program);

  return program;
}

buildProgram()
  .parseAsync(process.argv)
  .catch((err) => fail(err, process.argv.includes('--json')));
