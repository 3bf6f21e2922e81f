import { flag, maxTokens, text } from './args.js';
import { defineTool } from './tool.js';

export const readTool = defineTool({
  name: 'read',
  title: 'Read code',
  description:
    'The current text of a symbol or of a file range. target is a symbol name ("SessionManager.getUserName") or path[:start[-end]] ("src/auth/session.ts:7-11"). ' +
    'A range is widened to its enclosing function or class unless expand is false; the text is cut to max_tokens, and next_start_line says where to continue. ' +
    'Use it after search or locate instead of reading whole files; paths are relative to the repository root and cannot leave it. ' +
    'citation_status says whether the file changed since it was indexed; a span too big to answer comes back as status "refine" with narrower spans.',
  readsIndex: true,
  guide: { when: 'read a symbol or a line range (widened to the enclosing block)', call: '{target: "SessionManager"} or {target: "src/a.ts:10-40"}' },
  inputSchema: {
    target: text('target', '"src/auth/session.ts:7-11" or "SessionManager"').describe('A symbol name, a file path, or path:start-end (1-based, inclusive).'),
    expand: flag('expand').describe('Widen a line range to the enclosing function or class (default true); false keeps the exact lines.'),
    max_tokens: maxTokens('the text', 'the text is cut there, and next_start_line says where to continue'),
    force: flag('force').describe('Read even a span too big to answer whole, cut to max_tokens, instead of asking you to narrow it.'),
  },
  run: (a, { engine, session }) => engine.read({ target: a.target, expand: a.expand ?? true, maxTokens: a.max_tokens, force: a.force, session }),
});
