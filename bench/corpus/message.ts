/**
 * Commit messages as mining sees them: which issues or pull requests a message
 * names, the human text a user would have typed (title + body, without
 * attribution trailers or merge boilerplate), and the message patterns that
 * mark noise (version bumps, releases, formatting sweeps, bot commits).
 */

/** `#123`, `GH-123`, `owner/repo#123` and github.com issue / pull links. `&#123;` and `#123abc` are not references. */
const REF_PATTERNS: RegExp[] = [
  /(?:^|[^\w&#])(?:[\w.-]+\/[\w.-]+)?#(\d{1,6})\b/g,
  /\bGH-(\d{1,6})\b/g,
  /github\.com\/[\w.-]+\/[\w.-]+\/(?:issues|pull)\/(\d{1,6})\b/g,
];

/** The issue and pull-request numbers a message names, in order, without repeats. */
export function issueRefs(message: string): string[] {
  const found: { at: number; n: string }[] = [];
  for (const re of REF_PATTERNS) {
    for (const m of message.matchAll(re)) found.push({ at: m.index ?? 0, n: String(Number(m[1])) });
  }
  found.sort((a, b) => a.at - b.at);
  return [...new Set(found.map((f) => f.n))];
}

/** Who wrote or reviewed a change, not what it does: dropped from the query. */
const TRAILER = new RegExp(
  '^\\s*(signed-off-by|co-authored-by|co-developed-by|reviewed-by|acked-by|tested-by|reported-by|suggested-by|' +
    'helped-by|requested-by|approved-by|authored-by|committed-by|cc|change-id|pr-url|pr-close|reviewed-on|git-svn-id)\\s*:',
  'i',
);
/** Lines that are only separators (GitHub squash bodies put `---------` before the trailers). */
const RULE = /^\s*[-=*_]{3,}\s*$/;
const CI_SKIP = /\[(skip ci|ci skip|no ci|skip actions)\]/gi;

export function stripTrailers(text: string): string {
  return text
    .split('\n')
    .filter((line) => !TRAILER.test(line) && !RULE.test(line))
    .join('\n')
    .replace(CI_SKIP, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export type MessageShape = 'pr-merge' | 'bors-merge' | 'branch-merge' | 'plain';

export interface ParsedMessage {
  shape: MessageShape;
  title: string;
  body: string;
  refs: string[];
}

const PR_MERGE = /^Merge pull request #\d+ from \S+\s*$/;
/** homu (`Auto merge of #1 - user:branch, r=x`) and bors-ng (`Merge #1 #2`). */
const HOMU_MERGE = /^Auto merge of #\d+ - \S+/;
const BORS_MERGE = /^Merge(?: #\d+)+\s*$/;
const BORS_LINE = /^\d+: (.*?)(?: [ra]=\S+)*\s*$/;
const BRANCH_MERGE = /^Merge (?:branch|remote-tracking branch|tag) /;
/** A squash title's own reference, `Fix the thing (#123)`: a number, not words a user types. */
const TITLE_REF = /\s*\((?:[\w.-]+\/[\w.-]+)?#\d+\)\s*$/;
/** A title led by its reference: `[owner/repo#123] …`, `Issue #123: …`, `GH-123: …`, `#123 …`. */
const LEADING_REF = /^(?:\[[\w./-]*#\d+\]|(?:issue|gh)[ -]?#?\d+:|#\d+:?(?=\s))\s*/i;

function splitTitle(text: string): { title: string; body: string } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) return { title: '', body: '' };
  return { title: lines[first]!.trim(), body: lines.slice(first + 1).join('\n').trim() };
}

/** The message's title and body with merge boilerplate removed (a pull request's merge keeps its title from the body). */
export function parseMessage(message: string): ParsedMessage {
  const refs = issueRefs(message);
  const { title, body } = splitTitle(message);
  if (PR_MERGE.test(title) || HOMU_MERGE.test(title)) {
    const inner = splitTitle(body);
    return { shape: 'pr-merge', title: inner.title, body: stripTrailers(inner.body), refs };
  }
  if (BORS_MERGE.test(title)) {
    const inner = splitTitle(body);
    const m = BORS_LINE.exec(inner.title);
    return { shape: 'bors-merge', title: m ? m[1]! : inner.title, body: stripTrailers(inner.body), refs };
  }
  const shape: MessageShape = BRANCH_MERGE.test(title) ? 'branch-merge' : 'plain';
  return { shape, title: title.replace(TITLE_REF, '').replace(LEADING_REF, ''), body: stripTrailers(body), refs };
}

/** The query a pair carries: what the change's author said it does. */
export function queryOf(parsed: ParsedMessage): string {
  return parsed.body ? `${parsed.title}\n\n${parsed.body}` : parsed.title;
}

export const MIN_QUERY_CHARS = 20;

export type NoiseReason = 'bot' | 'version-bump' | 'release' | 'formatting' | 'revert' | 'branch-merge';

const BOT_AUTHOR = /\[bot\]|\b(dependabot|renovate|greenkeeper|snyk-bot|pre-commit-ci|github-actions|allcontributors|mergify)\b/i;
const NOISE_TITLES: [NoiseReason, RegExp][] = [
  ['version-bump', /^(chore|build|ci|deps?)(\([^)]*\))?!?:\s*(bump|update|upgrade)\b/i],
  ['version-bump', /^(bump|upgrade|update)\b.*\b(to|from)\s+v?\d+(\.\d+)+/i],
  ['version-bump', /^bump(ed|s)?\b/i],
  ['version-bump', /\b(update|upgrade|bump)\s+(all\s+)?(the\s+)?(dependencies|deps|lock ?files?|requirements)\b/i],
  ['release', /^(chore(\([^)]*\))?:\s*)?(release|releasing|prepare(d)?( for)?( the)? release|version)\b/i],
  ['release', /^v?\d+\.\d+(\.\d+)?([-.]\w+)?(\s|$)/i],
  ['release', /\b(changelog|release notes|v?\d+\.\d+(\.\d+)? release)\b/i],
  ['formatting', /^(style|format|fmt)(\([^)]*\))?!?:/i],
  ['formatting', /\b(reformat(ted|s|ting)?|re-format(ted)?|cargo fmt|gofmt|rustfmt|pre-commit autoupdate|whitespace)\b/i],
  ['formatting', /\b(run|ran|apply|applied|with|using|format with|switch to)\s+(black|prettier|isort|ruff format|google-java-format|spotless)\b/i],
  ['formatting', /^(fix(es|ed)?\s+)?typos?\b/i],
  ['revert', /^revert\b/i],
];

/** Why a commit is noise rather than a change a user asked for, or null. */
export function noiseReason(parsed: ParsedMessage, author: string): NoiseReason | null {
  if (BOT_AUTHOR.test(author)) return 'bot';
  if (parsed.shape === 'branch-merge') return 'branch-merge';
  for (const [reason, re] of NOISE_TITLES) if (re.test(parsed.title)) return reason;
  return null;
}
