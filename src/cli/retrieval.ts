/** The retrieval verbs, declared in src/spec: search, locate, outline, read, list-files, stats. */
import type { Command } from 'commander';
import type { LocateKind, SearchMode } from '../engine/index.js';
import { addVerb, LIST_FILES, LOCATE, OUTLINE, READ, SEARCH, STATS } from '../spec/cli.js';
import * as render from './render.js';
import { common, emit, gateSession, orRefine, readyToQuery, withEngine, type CommonOptions } from './verb.js';

interface Gated extends CommonOptions {
  scope?: string;
  maxTokens?: number;
  force?: boolean;
  session?: string;
}

interface SearchFlags extends Gated {
  k?: number;
  files?: boolean;
  mode?: SearchMode;
  exclude?: string[];
  kind?: string[];
  regex?: boolean;
  expand?: boolean;
}

export function registerRetrieval(program: Command): void {
  common(addVerb(program, SEARCH)).action(async (words: string[], o: SearchFlags) => {
    await withEngine(o, async (engine) => {
      await readyToQuery(engine);
      const query = words.join(' ');
      const answer = await engine.search({ query, k: o.k, files: o.files, mode: o.mode, scope: o.scope, exclude: o.exclude, kind: o.kind, regex: o.regex, force: o.force, maxTokens: o.maxTokens, expand: o.expand, session: gateSession(o) });
      emit(o, answer, orRefine(render.renderSearch));
    });
  });

  common(addVerb(program, LOCATE)).action(async (name: string, o: Gated & { kind?: LocateKind; maxResults?: number }) => {
    await withEngine(o, async (engine) => {
      await readyToQuery(engine);
      const answer = await engine.locate({ query: name, kind: o.kind, scope: o.scope, maxResults: o.maxResults, maxTokens: o.maxTokens, force: o.force, session: gateSession(o) });
      emit(o, answer, orRefine(render.renderLocate));
    });
  });

  common(addVerb(program, OUTLINE)).action(async (file: string, o: CommonOptions & { maxTokens?: number }) => {
    await withEngine(o, async (engine) => emit(o, await engine.outline(file, { maxTokens: o.maxTokens }), render.renderOutline));
  });

  common(addVerb(program, READ)).action(async (target: string, o: Gated & { expand: boolean }) => {
    await withEngine(o, async (engine) => {
      const answer = await engine.read({ target, expand: o.expand, maxTokens: o.maxTokens, force: o.force, session: gateSession(o) });
      emit(o, answer, orRefine(render.renderRead));
    });
  });

  common(addVerb(program, LIST_FILES)).action(async (o: CommonOptions & { glob?: string; language?: string; maxResults?: number; maxTokens?: number; cursor?: string }) => {
    const options = { glob: o.glob, language: o.language, maxResults: o.maxResults, maxTokens: o.maxTokens, cursor: o.cursor };
    await withEngine(o, async (engine) => emit(o, await engine.listFiles(options), render.renderListFiles));
  });

  common(addVerb(program, STATS)).action(async (o: CommonOptions) => {
    await withEngine(o, (engine) => emit(o, engine.stats(), render.renderStats));
  });
}
