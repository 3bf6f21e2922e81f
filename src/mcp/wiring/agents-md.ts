/**
 * The agent guide init writes into CLAUDE.md (Claude Code reads it) and
 * AGENTS.md (Codex, Cursor and others do): which tool to use when, what a
 * `refine` answer means, what `citation_status` values mean. Its tool table
 * is built from the tool registry, so it names every tool the server offers.
 * It lives between two markers; init replaces only what is between them.
 */
import { TOOLS, type ToolDefinition } from '../tools/index.js';
import type { FileChange } from './jsonc.js';

export const BEGIN_MARKER = '<!-- sightline:begin -->';
export const END_MARKER = '<!-- sightline:end -->';

/** The files that carry the guide, and who reads each. */
export const GUIDE_FILES = [
  { file: 'CLAUDE.md', for: 'Claude Code' },
  { file: 'AGENTS.md', for: 'agents' },
] as const;

function row(t: ToolDefinition): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const writes = t.mutating ? ' (only when the server runs with `--enable-writes`)' : '';
  return `| ${cell(t.guide.when)}${writes} | \`${t.name}\` ${cell(t.guide.call)} |`;
}

export function agentGuide(tools: readonly ToolDefinition[] = TOOLS): string {
  return `${BEGIN_MARKER}
## Finding code: use sightline

This repository is served by the \`sightline\` MCP server. Ask it instead of running grep, find or cat over the tree:
its answers are ranked, fit a token budget and cite exact lines.

| When you want to… | Call |
|---|---|
${tools.map(row).join('\n')}

Start with \`locate\` when you know a name, \`search\` when you do not, and \`context\` when you have a whole task; then \`read\` only the hits you need.
Paths are relative to the repository root.

**\`status: "refine"\`** means the question matched more than fits the budget; it is not an error.
Look at \`summary\` and \`distribution\`, then ask again as one of the \`suggestions\` says: narrow \`scope\` to the
directory you care about, add a term, or, only when you truly need all of it, repeat with \`force: true\`.

**\`retrieval_phase: "building"\`** means the first index is still running and results may be incomplete; \`index_status\` shows its progress.

**\`citation_status\`** on a result says whether its line numbers still hold:
- \`verified\`: the file is unchanged since it was indexed; the lines are exact.
- \`stale\`: the file changed after indexing, so the lines may have moved; the file is still the right one. Find the symbol by name (\`read\` or \`locate\` it) before you edit.
- \`unverifiable\`: nothing could be checked (the file is unreadable, or the index has no timestamp). It is not a quiet "verified": read the file to confirm.
${END_MARKER}
`;
}

/** The file with the guide inserted or replaced between its markers, or why it cannot be. */
export function upsertSection(existing: string | null, section: string): FileChange {
  if (existing === null) return { action: 'create', content: section, note: 'creates the file with the sightline section' };
  const begin = existing.indexOf(BEGIN_MARKER);
  const end = existing.indexOf(END_MARKER);
  if (begin === -1 && end === -1) {
    const separator = existing === '' ? '' : existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
    return { action: 'update', content: existing + separator + section, note: 'appends the sightline section; your text is unchanged' };
  }
  if (begin === -1 || end === -1) return { action: 'skip', note: 'has one sightline marker without the other; fix or remove it, then run init again' };
  if (end < begin || existing.indexOf(BEGIN_MARKER, begin + 1) !== -1 || existing.indexOf(END_MARKER, end + 1) !== -1) {
    return { action: 'skip', note: 'has sightline markers out of order or twice; keep one begin marker before one end marker, then run init again' };
  }
  const after = end + END_MARKER.length + (existing[end + END_MARKER.length] === '\n' ? 1 : 0);
  const content = existing.slice(0, begin) + section + existing.slice(after);
  if (content === existing) return { action: 'keep', note: 'the sightline section is up to date' };
  return { action: 'update', content, note: 'replaces the sightline section between its markers; your text is unchanged' };
}
