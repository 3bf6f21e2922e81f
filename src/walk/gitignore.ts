/**
 * Hierarchical .gitignore support built on the `ignore` package.
 *
 * `ignore` evaluates one rule list relative to one base directory. Git, however,
 * evaluates a *stack* of lists: `.git/info/exclude`, then the root `.gitignore`,
 * then every deeper `.gitignore` on the way down, the last matching rule winning.
 *
 * We compose that stack by rebasing every rule of `dir/.gitignore` onto the
 * repository root (`/foo` -> `dir/foo`, `foo` -> `dir/**\/foo`) and appending it to
 * a copy of the parent directory's matcher. A single `ignore` instance per
 * directory that has its own `.gitignore` then answers for full repo-relative
 * paths with exactly git's precedence — including the case where a deeper
 * `.gitignore` re-includes a directory that a shallower one excluded, which a
 * naive "one instance per level, test each" composition gets wrong because
 * `ignore` also tests parent directories within each level.
 */
import fs from 'node:fs';
import ignore from 'ignore';

type Ignore = ignore.Ignore;
type PatternParams = ignore.PatternParams;

/** Characters that are special in gitignore globs and must be escaped in a literal directory prefix. */
const GLOB_SPECIAL = /[\\*?[\]!#]/g;

function escapeLiteral(s: string): string {
  return s.replace(GLOB_SPECIAL, (c) => `\\${c}`);
}

/** Strip trailing spaces that are not escaped with a backslash (gitignore rule). */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 32 /* ' ' */) {
    // count backslashes before this space
    let bs = 0;
    for (let i = end - 2; i >= 0 && line.charCodeAt(i) === 92 /* '\\' */; i--) bs++;
    if (bs % 2 === 1) break; // escaped space: keep it (and everything before)
    end--;
  }
  return line.slice(0, end);
}

/**
 * Parse the text of one ignore file into rules rebased onto the repository root.
 *
 * @param content   file contents
 * @param baseDir   repo-relative POSIX directory the file lives in ('' for the root)
 * @param source    label used in rule attribution, e.g. ".gitignore" or "src/.gitignore"
 */
export function parseGitignore(content: string, baseDir: string, source: string): PatternParams[] {
  const out: PatternParams[] = [];
  const prefix = baseDir === '' ? '' : escapeLiteral(baseDir) + '/';
  for (const rawLine of content.split('\n')) {
    const line = trimTrailingSpaces(rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine);
    if (line === '' || line.startsWith('#')) continue;
    const mark = `${source}: ${line}`;
    if (prefix === '') {
      out.push({ pattern: line, mark });
      continue;
    }
    let negated = false;
    let body = line;
    if (body.startsWith('!')) {
      negated = true;
      body = body.slice(1);
    }
    // Directory-only marker does not count towards anchoring.
    const core = body.endsWith('/') ? body.slice(0, -1) : body;
    if (core === '') continue; // "/" or "!/" matches nothing
    const anchored = core.includes('/');
    const rebased = anchored
      ? prefix + (body.startsWith('/') ? body.slice(1) : body)
      : prefix + '**/' + body;
    out.push({ pattern: (negated ? '!' : '') + rebased, mark });
  }
  return out;
}

/** Rule lists remembered per matcher: enough for a tree's .gitignore files to be edited a few times in one long-lived process. */
const KEPT_EXTENSIONS = 64;

/**
 * Immutable matcher for one directory: all rules that apply to paths below it.
 *
 * Matchers are kept and shared, from one root down (`empty()`), by the rule
 * lists that extend them: the next walk of the same tree with the same rules
 * gets the same `ignore` instances back, and with them their per-path
 * answers. A walk that finds nothing changed is mostly these checks and
 * stats, and on babel/babel (27,600 files) the checks were a fifth of it.
 * The answers depend on the rules and the repo-relative path alone, so
 * repositories with the same rules may share them.
 */
export class IgnoreMatcher {
  private static readonly root = new IgnoreMatcher(ignore({ ignorecase: false }), 0);
  /** Matchers made from this one, by their added rules (extend); the oldest go past KEPT_EXTENSIONS. */
  private readonly extensions = new Map<string, IgnoreMatcher>();

  private constructor(
    private readonly ig: Ignore,
    /** Number of rules this matcher holds (0 = nothing can be ignored). */
    readonly size: number,
  ) {}

  static empty(): IgnoreMatcher {
    return IgnoreMatcher.root;
  }

  /** The matcher with `rules` appended (later rules win); `this` if there are none. */
  extend(rules: readonly PatternParams[]): IgnoreMatcher {
    if (rules.length === 0) return this;
    const key = JSON.stringify(rules.map((r) => [r.pattern, r.mark]));
    let made = this.extensions.get(key);
    if (made) {
      this.extensions.delete(key); // refresh recency
    } else {
      const ig = ignore({ ignorecase: false });
      if (this.size > 0) ig.add(this.ig);
      ig.add(rules);
      made = new IgnoreMatcher(ig, this.size + rules.length);
      if (this.extensions.size >= KEPT_EXTENSIONS) this.extensions.delete(this.extensions.keys().next().value!);
    }
    this.extensions.set(key, made);
    return made;
  }

  /**
   * Returns the responsible rule's label (e.g. ".gitignore: *.log") when the
   * repo-relative POSIX `relPath` is ignored, otherwise undefined.
   */
  check(relPath: string, isDir: boolean): string | undefined {
    if (this.size === 0) return undefined;
    let res: ignore.TestResult;
    try {
      res = this.ig.test(isDir ? relPath + '/' : relPath);
    } catch {
      return undefined; // a path `ignore` refuses to judge is not ignored
    }
    if (!res.ignored) return undefined;
    return res.rule?.mark ?? res.rule?.pattern ?? 'gitignore';
  }
}

/** Read and parse an ignore file; a missing or unreadable file yields no rules. Synchronous: a few hundred bytes, read as the walk reads directories. */
export function readIgnoreFile(abs: string, baseDir: string, source: string): PatternParams[] {
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch {
    return [];
  }
  return parseGitignore(text, baseDir, source);
}
