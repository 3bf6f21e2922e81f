import { CONTEXT, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const contextTool = defineTool({
  ...toolFace(CONTEXT),
  readsIndex: true,
  run: (a, { engine, session }) =>
    engine.context({
      task: a.task,
      terms: a.terms,
      scope: a.scope,
      top: a.top,
      budgetTokens: a.budget_tokens,
      detail: a.detail,
      seen: a.seen,
      known: a.known,
      session: a.session ?? session,
      expand: a.expand,
    }),
});
