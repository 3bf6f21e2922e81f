/**
 * The Claude Code SessionStart hook: on startup, /clear and compaction,
 * Claude Code runs the command and adds its stdout to the agent's context,
 * so `sightline brief` (index health and a one-screen overview) starts the
 * agent oriented. Merged into .claude/settings.json like the server entries:
 * other settings, hooks and comments are kept, and a hook init wrote before
 * is kept as it is.
 */
import { shellWord, type Launch } from './command.js';
import { isObject, parseJsonc, renderJson, setIn, type FileChange } from './jsonc.js';

export const HOOK_FILE = '.claude/settings.json';
export const BRIEF_VERB = 'brief';
/** Claude Code sets CLAUDE_PROJECT_DIR for hooks; the session may have started in a subdirectory. */
const HOOK_TAIL = ` ${BRIEF_VERB} --repo "\${CLAUDE_PROJECT_DIR:-.}"`;
/** Sources of SessionStart that begin a context without the brief in it (resume keeps the old one). */
const MATCHER = 'startup|clear|compact';
const TIMEOUT_S = 15;

export function hookCommand(launch: Launch): string {
  return [launch.command, ...launch.args].map(shellWord).join(' ') + HOOK_TAIL;
}

function isOurs(group: unknown): boolean {
  return isObject(group) && Array.isArray(group.hooks) && group.hooks.some((h) => isObject(h) && typeof h.command === 'string' && h.command.endsWith(HOOK_TAIL));
}

export function mergeSessionHook(existing: string | null, command: string): FileChange {
  const group = { matcher: MATCHER, hooks: [{ type: 'command', command, timeout: TIMEOUT_S }] };
  if (existing === null || existing.trim() === '') {
    return { action: 'create', content: renderJson({ hooks: { SessionStart: [group] } }), note: `adds a SessionStart hook running \`sightline ${BRIEF_VERB}\`` };
  }
  const byHand = `add ${JSON.stringify(group)} to "hooks"."SessionStart" by hand`;
  const parsed = parseJsonc(existing);
  if ('error' in parsed) return { action: 'skip', note: `${parsed.error}, left untouched; ${byHand}` };
  const settings = parsed.value;
  if (!isObject(settings)) return { action: 'skip', note: `the file is not an object, left untouched; ${byHand}` };
  const hooks = settings.hooks;
  if (hooks !== undefined && !isObject(hooks)) return { action: 'skip', note: `"hooks" is not an object, left untouched; ${byHand}` };
  const sessionStart = hooks?.SessionStart;
  if (sessionStart !== undefined && !Array.isArray(sessionStart)) return { action: 'skip', note: `"hooks"."SessionStart" is not a list, left untouched; ${byHand}` };
  if (sessionStart?.some(isOurs)) return { action: 'keep', note: `already has the sightline SessionStart hook, kept as it is` };
  const content =
    hooks === undefined ? setIn(existing, ['hooks'], { SessionStart: [group] }) : sessionStart === undefined ? setIn(existing, ['hooks', 'SessionStart'], [group]) : setIn(existing, ['hooks', 'SessionStart', -1], group);
  return { action: 'update', content, note: `adds a SessionStart hook running \`sightline ${BRIEF_VERB}\`; other settings, hooks and comments are kept` };
}
