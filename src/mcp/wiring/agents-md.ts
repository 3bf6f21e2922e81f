/**
 * The AGENTS.md section: which tool to use when, what a `refine` answer
 * means, what `citation_status` values mean. It lives between two markers;
 * init replaces only what is between them and never touches the rest.
 */
export const BEGIN_MARKER = '<!-- sightline:begin -->';
export const END_MARKER = '<!-- sightline:end -->';

export const AGENTS_SECTION = `${BEGIN_MARKER}
## Finding code: use sightline

This repository is served by the \`sightline\` MCP server. Ask it instead of running grep, find or cat over the tree:
its answers are ranked, fit a token budget and cite exact lines.

| When you want to… | Call |
|---|---|
| find where a class, function or method is defined or used | \`locate\` {query: "Name" or "Class.method", kind: definition, reference or any} |
| find code by what it does or by a word in it | \`search\` {query, scope, k, files: true for one hit per file} |
| read a symbol or a line range (widened to the enclosing block) | \`read\` {target: "Name" or "path:start-end"} |
| see a file's definitions before reading it | \`outline\` {path} |
| find files by path or language | \`list_files\` {glob, language} |
| check the server and its index | \`health\`, \`index_status\`, \`stats\` |

Start with \`locate\` when you know a name and \`search\` when you do not; then \`read\` only the hits you need.
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

export type SectionAction = 'create' | 'update' | 'keep' | 'skip';

/** The file with the section inserted or replaced, or why it cannot be. */
export function upsertSection(existing: string | null): { action: SectionAction; content?: string; note: string } {
  if (existing === null) return { action: 'create', content: AGENTS_SECTION, note: 'creates the file with the sightline section' };
  const begin = existing.indexOf(BEGIN_MARKER);
  const end = existing.indexOf(END_MARKER);
  if (begin === -1 && end === -1) {
    const separator = existing === '' ? '' : existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
    return { action: 'update', content: existing + separator + AGENTS_SECTION, note: 'appends the sightline section; your text is unchanged' };
  }
  if (begin === -1 || end < begin) {
    return { action: 'skip', note: `has one sightline marker without the other; fix or remove it, then run init again` };
  }
  const after = end + END_MARKER.length + (existing[end + END_MARKER.length] === '\n' ? 1 : 0);
  const content = existing.slice(0, begin) + AGENTS_SECTION + existing.slice(after);
  if (content === existing) return { action: 'keep', note: 'the sightline section is up to date' };
  return { action: 'update', content, note: 'replaces the sightline section between its markers; your text is unchanged' };
}
