import { SEARCH, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const searchTool = defineTool({
  ...toolFace(SEARCH),
  readsIndex: true,
  pooled: true,
  run: (a, { engine, session }) =>
    engine.search({
      query: a.query,
      scope: a.scope,
      exclude: a.exclude,
      kind: a.kind,
      regex: a.regex,
      k: a.k,
      files: a.files,
      mode: a.mode,
      force: a.force,
      maxTokens: a.max_tokens,
      expand: a.expand,
      session,
    }),
});
