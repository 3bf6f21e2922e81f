import { EXPLORE, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const exploreTool = defineTool({
  ...toolFace(EXPLORE),
  readsIndex: true,
  run: (a, { engine, session }) =>
    engine.explore({
      question: a.question,
      relation: a.relation,
      anchor: a.anchor,
      depth: a.depth,
      scope: a.scope,
      maxResults: a.max_results,
      maxTokens: a.max_tokens,
      force: a.force,
      session,
    }),
});
