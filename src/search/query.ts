/**
 * Reading a query the way an engineer reads an issue. Issue texts are not
 * search boxes: a title, template headings, prose, links, backticked code,
 * identifiers, CLI flags, paths, stack traces and pasted code or logs. The
 * reader drops what carries no signal (template headings, URLs, HTML comments,
 * stopwords) and weights what does: the title and whatever the writer marked
 * or spelled as code count more than prose and pasted blocks. A plain search
 * box query ("parse config file", "getUserName") reads as one title line.
 */
import { STOPWORDS } from './stopwords.js';
import { forEachTerm, identifierWords, MAX_TERM_LENGTH, queryTerms } from '../terms/index.js';

export interface WeightedTerm {
  term: string;
  weight: number;
}

/** Shared by every reader of one query (readQuery remembers the last): read-only. */
export interface ReadQuery {
  /** Distinct code-aware terms, heaviest first (first seen first among equals). */
  readonly terms: readonly WeightedTerm[];
  /** Whole-identifier terms of names written as code, with the weight of where they were written: candidates for "the definition of what the issue names". */
  readonly identifiers: ReadonlyMap<string, number>;
  /**
   * A one-line question's words and their plain forms, each with the word's
   * weight: a search box has no backticks, so a word is a name wherever the
   * index defines it ("where are files walked" asks for `walk`). Empty for a whole issue.
   */
  readonly askedNames: ReadonlyMap<string, number>;
  /** A one-line question (a search box), not a whole issue. */
  readonly question: boolean;
  /** Paths and file names the text mentions, stack-trace frames included (forward slashes, as written). */
  readonly paths: readonly string[];
  /** Every term of the title, stopwords included: what the issue says it is about. */
  readonly title: ReadonlySet<string>;
  /** The title line itself, links and HTML comments left out (a one-line question is all title). */
  readonly titleLine: string;
}

/** How much each part of an issue says about where the fix goes. */
export const PART_WEIGHT = {
  title: 3,
  /** Backticked spans, identifiers spelled as code, flags, paths and stack-trace frames. */
  code: 3,
  prose: 1,
  /** Pasted code, logs and output in fenced blocks: long, and mostly the writer's code. */
  block: 1,
} as const;

/** Most terms a query sends to the lexical index: the heaviest survive. */
export const MAX_QUERY_TERMS = 96;

/** Issue-template and bug-report vocabulary: frequent in issues, says nothing about code. */
const ISSUE_WORDS = new Set(
  `able actual actually also always anyone anything appear appears around bug bugs case cause causes change changes currently describe
  described description else even everything example expect expected expecting feature following get gets getting give going got happen
  happens hello help hi however idea instead issue issues just know let like likely look looks make makes many may maybe might more
  most much need needs new now one only other please possible probably problem problems really related report reproduce reproduction
  result results right said same see seem seems since something still sure thank thanks thing things think trying try two use used
  uses using version versions want wanted way well without work worked working works would wrong yes yet`.split(/\s+/),
);

/*
 * Every pattern below must stay linear in the text: a match may start only
 * where a token starts (a lookbehind on the token's own characters), and no
 * quantifier may rescan what another already gave back. Without that, one
 * 20,000-letter word took 1.5 s here and 100 KB took 30 s.
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})[^\n]*\n([\s\S]*?)(?:^ {0,3}\1[^\n]*$|(?![\s\S]))/gm;
const URL = /\b(?:https?|ftp):\/\/[^\s<>()\]"'`]+/g;
/** A file inside a repository on a code host: `…/blob/<ref>/<path>` names a path. */
const HOSTED_PATH = /\/(?:blob|tree|raw)\/[^/\s]+\/([^\s#?]+)/;
const HEADING = /^ {0,3}#{1,6}\s.*$/gm;
/** A line that is only a bold or italic label: `**Describe the bug**`. */
const LABEL_LINE = /^[^\S\n]*(\*\*|__)[^*_\n]{1,80}\1:?[^\S\n]*$/gm;
const CODE_SPAN = /`([^`\n]+)`/g;
const FLAG = /(?<![\w-])--?[A-Za-z][\w-]*(?:=\S+)?/g;
/** Identifier-shaped tokens: snake_case, camelCase, qualified (a.b, a::b, a#b), or called (name()). */
const CODE_TOKEN =
  /(?<![\w$])(?:[A-Za-z_$][\w$]*(?:(?:\.|::|#|->)[A-Za-z_$][\w$]*)+(?:\(\))?|[A-Za-z_$][\w$]*\(\)?|\b[a-z$][\w$]*[A-Z_][\w$]*|\b[A-Z][a-z0-9$]+[A-Z][\w$]*|\b_\w+)/g;
/** A path or a file name with an extension: src/foo/bar.rs, bar.py, ./lib/x.js. */
const PATH = /(?<![\w@.+/-])(?:[\w@.+-]+\/)*[\w@+-][\w@.+-]*\.[A-Za-z][A-Za-z0-9]{0,9}(?![\w/])/g;
/** Stack-trace frames of the common runtimes; each captures a path and maybe a function. */
const FRAMES: { re: RegExp; path: number; fn?: number }[] = [
  { re: /File "([^"]+)", line \d+(?:, in ([\w<>$]+))?/g, path: 1, fn: 2 }, // Python
  { re: /\bat ([\w$.<>]+)\(([\w$.-]+\.\w+):\d+\)/g, path: 2, fn: 1 }, // Java, Kotlin
  { re: /\bat (?:(?:async )?([\w$.<>]+) )?\(?((?:[A-Za-z]:)?[^\s():]+\.[cm]?[jt]sx?):\d+(?::\d+)?\)?/g, path: 2, fn: 1 }, // Node
  { re: /(?<![\w@.+/\\-])((?:[A-Za-z]:)?[\w@.+/\\-]+\.(?:go|rs|c|cc|cpp|h|hpp|rb|php|cs|swift|kt|scala|zig|ex|exs)):\d+/g, path: 1 }, // Go, Rust, C and more
];

/**
 * A question's frame: what the asker will do, not what the code says. In "what must I read to add
 * a new transport" the asker reads, and will add a thing that does not exist yet; the code is
 * about transports. Left out of the title's terms: a verb of reading right after the asker (`I`,
 * `we`, `you`, perhaps with "need to") when a "to" of purpose follows it, and a verb of making
 * after the asker or a "to" when "a new" thing follows it. On the MCP TypeScript SDK "read" and
 * "add" (in `readMessage`, `addClientAuthentication`, …) outweighed "transport": the interface's
 * own file was not among the first 60. A verb that is the question keeps its weight: "how do I
 * read a file" asks for `read`, "how do I add a route" for `add`. Linear, as the patterns above:
 * each alternative starts at a word boundary with a word, and each lookahead reads a few words.
 */
const READING = 'read|look\\s+at|see|check|know|understand|learn|study|inspect|review|open|touch';
const MAKING = 'add|build|create|implement|introduce|make|support|write';
const QUESTION_FRAME = new RegExp(
  `\\b(?:i|we|you)\\s+(?:(?:need|have|want)\\s+to\\s+)?(?:${READING})(?=\\s+(?:first\\s+)?(?:in\\s+order\\s+)?to\\s)` +
    `|\\b(?:to|i|we|you)\\s+(?:${MAKING})(?=\\s+(?:an?\\s+)?new\\b)`,
  'gi',
);

/**
 * How a whole issue and a search-box question weigh what their words only
 * suggest (a compound's parts, an inflected word's plain forms). An issue:
 * one step below the word (3 → 2, prose stays 1). A one-line question:
 * half the word, and it also gets the plain forms (a whole issue already
 * holds the words its code uses; on the dev issues the extra forms cost 4
 * points of Acc@5). Half, because FTS5 weighs a term by repeating it: words
 * at 3 and parts at 1.5 read each term's postings at most twice, where 3 and
 * 2 read them five times between them.
 */
const ISSUE_READING = { lighter: (weight: number) => Math.max(1, weight - 1), plainForms: false };
const QUESTION_READING = { lighter: (weight: number) => weight / 2, plainForms: true };

class TermBag {
  private readonly weights = new Map<string, number>();
  /** A question's whole words and their plain forms, at the word's weight (ReadQuery.askedNames). */
  readonly askedNames = new Map<string, number>();

  constructor(private readonly reading: typeof ISSUE_READING) {}

  add(text: string, weight: number): void {
    forEachTerm(text, (term, isWhole) => {
      if (!keep(term)) return;
      // A compound's parts say less than the compound itself.
      this.put(term, isWhole ? weight : this.reading.lighter(weight));
      if (!this.reading.plainForms || !isWhole) return;
      putMax(this.askedNames, term, weight);
      // So do the plain forms of an inflected word: code says `walk`, a question "walked".
      for (const stem of plainForms(term)) {
        if (!keep(stem)) continue;
        this.put(stem, this.reading.lighter(weight));
        putMax(this.askedNames, stem, weight);
      }
    });
  }

  /** `max-count`, `ignore-paths`: also the joined spelling code uses (max_count, ignorePaths → maxcount, ignorepaths). */
  addHyphenated(text: string, weight: number): void {
    for (const compound of text.match(/(?<![A-Za-z0-9])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+/g) ?? []) {
      const joined = compound.split('-').flatMap((p) => identifierWords(p)).join('');
      if (keep(joined)) this.put(joined, weight);
    }
    this.add(text, weight);
  }

  private put(term: string, weight: number): void {
    putMax(this.weights, term, weight);
  }

  /** Heaviest first; the map keeps first-seen order, and the sort is stable. */
  sorted(): WeightedTerm[] {
    return [...this.weights].map(([term, weight]) => ({ term, weight })).sort((a, b) => b.weight - a.weight);
  }
}

/**
 * Candidate plain forms of an English inflection: walked → walk, parsing →
 * parse; dependencies → dependency; caches → cach, cache. Candidates the
 * index has never seen are dropped before the search (evidence.ts). Short
 * words, non-words and stems too short to be told from other words are left out.
 */
export function plainForms(word: string): string[] {
  return inflectionStems(word).filter((stem) => stem.length >= MIN_STEM);
}

/** A shorter stem is more often another word than the plain form (string → str). */
const MIN_STEM = 4;

function inflectionStems(word: string): string[] {
  if (word.length < 5 || !/^[a-z]+$/.test(word)) return [];
  // A doubled last consonant is undone (stopped → stop), an l's too, for British spellings (cancelled →
  // cancel, labelled → label); called → cal is too short to keep, and installed → instal is a word no index holds.
  const undouble = (stem: string) => (/([^aeiouy])\1$/.test(stem) && !/(ss|ff|zz)$/.test(stem) ? [stem.slice(0, -1)] : []);
  if (word.endsWith('ies')) return [word.slice(0, -3) + 'y'];
  if (word.endsWith('ing')) return [word.slice(0, -3), word.slice(0, -3) + 'e', ...undouble(word.slice(0, -3))];
  if (word.endsWith('ed')) return [word.slice(0, -2), word.slice(0, -1), ...undouble(word.slice(0, -2))];
  if (word.endsWith('es')) return [word.slice(0, -2), word.slice(0, -1)];
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return [word.slice(0, -1)];
  return [];
}

function putMax(weights: Map<string, number>, term: string, weight: number): void {
  if ((weights.get(term) ?? 0) < weight) weights.set(term, weight);
}

function keep(term: string): boolean {
  return term.length > 1 && !/^\d+$/.test(term) && !STOPWORDS.has(term) && !ISSUE_WORDS.has(term);
}

/** A mentioned path, trimmed of decoration: `./src/x.ts`, `/src/x.ts` → `src/x.ts`, Go module versions dropped. */
function cleanPath(raw: string): string {
  const p = withoutModuleVersion(raw.replace(/\\/g, '/')).replace(/^(?:\.{0,2}\/)+/, '');
  let end = p.length;
  while (end > 0 && '.,:;)'.includes(p[end - 1]!)) end--;
  return p.slice(0, end);
}

/** go/pkg/mod/github.com/org/repo@v1.2.3/core/x.go → core/x.go: past the last `@v1…/` (a scan, where `^.*@` backtracks per `@`). */
function withoutModuleVersion(p: string): string {
  const lastSlash = p.lastIndexOf('/');
  for (let at = p.lastIndexOf('@', lastSlash); at >= 0 && lastSlash > 0; at = at > 0 ? p.lastIndexOf('@', at - 1) : -1) {
    if (/^v?\d/.test(p.slice(at + 1, at + 3))) return p.slice(p.indexOf('/', at) + 1);
  }
  return p;
}

/** HTML comments dropped, an unclosed one kept (a scan: a lazy regex rescans the rest per unclosed `<!--`). */
function withoutComments(text: string): string {
  let out = '';
  let at = 0;
  for (let open = text.indexOf('<!--'); open >= 0; open = text.indexOf('<!--', at)) {
    const close = text.indexOf('-->', open + 4);
    if (close < 0) break;
    out += text.slice(at, open) + ' ';
    at = close + 3;
  }
  return out + text.slice(at);
}

/**
 * A search question, read once: the text as asked and what it names. One
 * search makes one (`ask`) and hands it to every step — ranking, evidence,
 * fusion, the query's vector — so a question that is a whole issue is read
 * once, not once per step.
 */
export interface Question {
  readonly text: string;
  readonly read: ReadQuery;
}

/** Reads a question; one of nothing but stopwords still searches for its words. */
export function ask(text: string): Question {
  const read = readQuery(text);
  if (read.terms.length > 0) return { text, read };
  return { text, read: { ...read, terms: queryTerms(text).slice(0, MAX_QUERY_TERMS).map((term) => ({ term, weight: 1 })) } };
}

/** Reads a query's text (query.test.ts reads it directly; searches go through `ask`). */
export function readQuery(text: string): ReadQuery {
  const question = !text.trim().includes('\n');
  const bag = new TermBag(question ? QUESTION_READING : ISSUE_READING);
  const identifiers = new Map<string, number>();
  const paths: string[] = [];
  const addPath = (raw: string) => {
    const p = cleanPath(raw);
    if (p && !paths.includes(p)) paths.push(p);
  };
  const addIdentifier = (raw: string, weight: number) => {
    for (const part of raw.split(/\.|::|#|->/)) {
      if (part.length > MAX_TERM_LENGTH) continue; // as forEachTerm: blobs are noise
      const key = identifierWords(part.replace(/[^\p{L}\p{N}_]/gu, '')).join('');
      if (keep(key)) putMax(identifiers, key, weight);
    }
  };

  let body = withoutComments(text.replace(/\r\n?/g, '\n'));
  for (const frame of FRAMES) {
    for (const m of body.matchAll(frame.re)) {
      addPath(m[frame.path]!);
      bag.add(m[frame.path]!.replace(/^.*[\\/]/, ''), PART_WEIGHT.code);
      if (frame.fn !== undefined && m[frame.fn]) {
        addIdentifier(m[frame.fn]!, PART_WEIGHT.code);
        bag.add(m[frame.fn]!, PART_WEIGHT.code);
      }
    }
  }
  for (const m of body.matchAll(URL)) {
    const hosted = HOSTED_PATH.exec(m[0]);
    if (hosted) addPath(hosted[1]!);
  }
  body = body.replace(URL, ' ');

  const blocks: string[] = [];
  const prose = body.replace(FENCE, (_all, _fence: string, code: string) => {
    blocks.push(code);
    return '\n';
  });
  const lines = prose.split('\n');
  const titleIndex = lines.findIndex((l) => l.trim());
  const asked = titleIndex >= 0 ? lines[titleIndex]! : '';
  const title = asked.replace(QUESTION_FRAME, ' ');
  const rest = lines.slice(titleIndex + 1).join('\n').replace(HEADING, ' ').replace(LABEL_LINE, ' ');

  for (const part of [title, rest]) {
    const weight = part === title ? PART_WEIGHT.title : PART_WEIGHT.prose;
    for (const m of part.matchAll(CODE_SPAN)) {
      bag.addHyphenated(m[1]!, Math.max(weight, PART_WEIGHT.code));
      for (const t of m[1]!.match(CODE_TOKEN) ?? []) addIdentifier(t, PART_WEIGHT.code);
      if (/^[\w$]+$/.test(m[1]!)) addIdentifier(m[1]!, PART_WEIGHT.code);
    }
    for (const m of part.matchAll(FLAG)) bag.addHyphenated(m[0].replace(/=.*$/, ''), Math.max(weight, PART_WEIGHT.code));
    for (const m of part.matchAll(PATH)) addPath(m[0]);
    for (const m of part.matchAll(CODE_TOKEN)) {
      addIdentifier(m[0], PART_WEIGHT.code);
      bag.add(m[0], Math.max(weight, PART_WEIGHT.code));
    }
    bag.add(part, weight);
  }
  for (const code of blocks) {
    for (const m of code.matchAll(CODE_TOKEN)) addIdentifier(m[0], PART_WEIGHT.block);
    bag.add(code, PART_WEIGHT.block);
  }
  for (const p of paths) bag.add(p, PART_WEIGHT.code);
  const titleTerms = new Set<string>();
  forEachTerm(title, (t) => titleTerms.add(t));
  return { terms: bag.sorted().slice(0, MAX_QUERY_TERMS), identifiers, askedNames: bag.askedNames, question, paths, title: titleTerms, titleLine: asked.trim() };
}
