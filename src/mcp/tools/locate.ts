import { LOCATE, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const locateTool = defineTool({
  ...toolFace(LOCATE),
  readsIndex: true,
  pooled: true,
  run: (a, { engine, session }) =>
    engine.locate({ query: a.query, kind: a.kind, scope: a.scope, maxResults: a.max_results, maxTokens: a.max_tokens, force: a.force, session }),
});
