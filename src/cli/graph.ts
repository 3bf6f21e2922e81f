/** The code graph's verbs: `explore`, `related <path>`, `changed [path]` (see engine/explore.ts, related.ts, changed.ts). */
import { Option, type Command } from 'commander';
import { EXPLORE_RELATIONS, type ExploreRelation } from '../engine/index.js';
import { renderChanged, renderExplore, renderRelated } from './render-graph.js';
import { common, emit, examples, gateSession, maxTokensOption, orRefine, positiveInt, readyToQuery, SESSION_HELP, withEngine, type CommonOptions } from './verb.js';

interface ExploreFlags extends CommonOptions {
  relation: ExploreRelation;
  anchor?: string;
  depth?: number;
  scope?: string;
  maxResults?: number;
  maxTokens?: number;
  force?: boolean;
  session?: string;
}

export function registerGraph(program: Command): void {
  common(
    program
      .command('explore [question...]')
      .description('structure from the code graph: callers, callees, dependencies, dependents, impact (blast radius) or an overview (indexes on first use)')
      .addOption(new Option('--relation <relation>', 'what to follow; auto reads it from the question').choices([...EXPLORE_RELATIONS]).default('auto'))
      .option('--anchor <symbol-or-path>', 'the symbol ("Store.open") or file the question is about; read from the question when left out')
      .option('--depth <n>', 'levels of edges to follow, 1 (default) to 3', positiveInt)
      .option('--scope <dir-or-glob>', 'only hits under this directory or glob (overview: the directory to summarise)')
      .option('--max-results <n>', 'cap on hits (default 50)', positiveInt)
      .addOption(maxTokensOption('the hits, with by_file and unresolved (at most a quarter)'))
      .option('--force', 'answer even a huge blast radius instead of asking to refine it')
      .option('--session <id>', SESSION_HELP)
      .addHelpText(
        'after',
        examples(
          'sightline explore "who calls parseFile"',
          'sightline explore --relation callees --anchor Store.putFile',
          'sightline explore --relation impact --anchor src/store/files.ts --depth 3',
          'sightline explore --relation overview --scope src/engine --json',
        ),
      ),
  ).action(async (words: string[], o: ExploreFlags) => {
    await withEngine(o, async (engine) => {
      await readyToQuery(engine);
      const answer = await engine.explore({
        question: words.join(' '),
        relation: o.relation,
        anchor: o.anchor,
        depth: o.depth,
        scope: o.scope,
        maxResults: o.maxResults,
        maxTokens: o.maxTokens,
        force: o.force,
        session: gateSession(o),
      });
      emit(o, answer, orRefine(renderExplore));
    });
  });

  common(
    program
      .command('related <path>')
      .description("a file's neighbourhood: the files it uses, the files that use it, and the tests that cover it (indexes on first use)")
      .addOption(maxTokensOption('the answer'))
      .addHelpText('after', examples('sightline related src/store/files.ts', 'sightline related app/models/user.py --json --max-tokens 2000')),
  ).action(async (path: string, o: CommonOptions & { maxTokens?: number }) => {
    await withEngine(o, async (engine) => {
      await readyToQuery(engine);
      emit(o, await engine.related(path, { maxTokens: o.maxTokens }), renderRelated);
    });
  });

  common(
    program
      .command('changed [path]')
      .description('files added, modified and removed since the index (no git needed), and the indexed files that depend on them')
      .addOption(maxTokensOption('the answer'))
      .addHelpText('after', examples('sightline changed', 'sightline changed src/auth --json --max-tokens 2000')),
  ).action(async (path: string | undefined, o: CommonOptions & { maxTokens?: number }) => {
    await withEngine(o, async (engine) => {
      await readyToQuery(engine);
      emit(o, await engine.changed(path, { maxTokens: o.maxTokens }), renderChanged);
    });
  });
}
