/** The code graph's verbs: `explore`, `related <path>`, `changed [path]` (see engine/explore.ts, related.ts, changed.ts). */
import type { Command } from 'commander';
import type { ExploreRelation } from '../engine/index.js';
import { addVerb, CHANGED, EXPLORE, RELATED } from '../spec/cli.js';
import { renderChanged, renderExplore, renderRelated } from './render-graph.js';
import { common, emit, gateSession, orRefine, readyToQuery, withEngine, type CommonOptions } from './verb.js';

interface ExploreFlags extends CommonOptions {
  relation?: ExploreRelation;
  anchor?: string;
  depth?: number;
  scope?: string;
  maxResults?: number;
  maxTokens?: number;
  force?: boolean;
  session?: string;
}

export function registerGraph(program: Command): void {
  common(addVerb(program, EXPLORE)).action(async (words: string[], o: ExploreFlags) => {
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

  common(addVerb(program, RELATED)).action(async (path: string, o: CommonOptions & { maxTokens?: number }) => {
    await withEngine(o, async (engine) => {
      await readyToQuery(engine);
      emit(o, await engine.related(path, { maxTokens: o.maxTokens }), renderRelated);
    });
  });

  common(addVerb(program, CHANGED)).action(async (path: string | undefined, o: CommonOptions & { maxTokens?: number }) => {
    await withEngine(o, async (engine) => {
      await readyToQuery(engine);
      emit(o, await engine.changed(path, { maxTokens: o.maxTokens }), renderChanged);
    });
  });
}
