import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { countTokens, selfCountedJson, selfCountedTokens, setPieceCacheLimit } from '../../src/budget/index.js';
import { adoptRankTable, buildRankTable, loadRankTable, RankTable, readRankTableSoon, sharedRankTable } from '../../src/budget/ranks.js';
import { pieceEnd } from '../../src/budget/split.js';
import { PieceCache } from '../../src/budget/piece-cache.js';
import { MAX_PIECE_BYTES } from '../../src/budget/tokens.js';
import { removeDir, tempDir } from '../helpers/fixture.js';

const { encode } = createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as {
  encode: (text: string, options: { disallowedSpecial: Set<string> }) => number[];
};
const reference = (text: string) => encode(text, { disallowedSpecial: new Set() }).length;
const { O200K_TOKEN_SPLIT_REGEX } = createRequire(import.meta.url)('gpt-tokenizer/cjs/encodingParams/constants') as { O200K_TOKEN_SPLIT_REGEX: RegExp };
/** The pieces of o200k's split pattern, as gpt-tokenizer's encoder finds them. */
const referencePieces = (text: string) => [...text.matchAll(new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu'))].map((m) => m[0]);
/** Exact BPE per piece, a piece over MAX_PIECE_BYTES in chunks of that many bytes (ASCII here: a byte is a char). */
const chunkedReference = (text: string) =>
  referencePieces(text).reduce((n, piece) => {
    for (let at = 0; at < piece.length; at += MAX_PIECE_BYTES) n += reference(piece.slice(at, at + MAX_PIECE_BYTES));
    return n;
  }, 0);

/** The reference's own encoder miscounts a byte-order mark (see the test of it below). */
const withoutBom = (text: string) => text.replaceAll('\ufeff', '');

function pieces(text: string): string[] {
  const out: string[] = [];
  for (let start = 0, end = 0; start < text.length; start = end) {
    end = pieceEnd(text, start);
    out.push(text.slice(start, end));
  }
  return out;
}

/** A seeded generator of [0, 1) (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * Where the split scanner must agree with the pattern: every branch of it
 * and every way a non-ASCII char (letter, mark, digit, space, symbol) can
 * sit next to an ASCII piece.
 */
const CORPUS = [
  'def get_user_name(self):\n    return self._name  \n\n\n    # trailing   \n',
  'class HTTPServer(BaseHTTPRequestHandler):\n\tdef do_GET(self) -> None: ...\n',
  'if (x !== undefined && y >= 0) { z = x?.y ?? [1, 2, 3]; }\n',
  '        \n            \n\n  \t\n\t\t  x',
  'line one\r\nline two  \r\n\r\n  \r\n\tdone\r\n',
  '0 12 345 6789 12345 1234567 12345678901 3.14159 0xDEADBEEF 1e-9 v1.2.3 x86_64 2024-01-01T00:00:00Z',
  "don't DON'T Don'T it's IT'S we're WE'RE I'll I'LL i'Ll you've YOU'VE I'd I'D I'm I'M 'tis 'x o'clock ' 's",
  "can't'" + "s x'' y'S z'sx HTTP's HTTP'LL",
  '):\n//comment\n  /path/to/file ):\n/x\n   \n  \t \n',
  '=> -> :: ... --- +++ /* */ <!-- --> {{ }} \\n \\t "\'`',
  'café Ünïcode naïve ﬁle Ωmega ÀB àb É x\u0301y e\u0301 A\u030a',
  '日本語のテキスト 中文字符 한국어 텍스트 العربية עברית ไทย हिन्दी',
  'mixedЖзык and日本 x日 日x 1日 日1 ℃ ² ½ ٣٤ ⅷ Ⅻ',
  '😀 👍🏽 👨‍👩‍👧 🇯🇵 x😀 😀x ,😀 😀, \u200d \ufe0f',
  'nbsp\u00a0here \u00a0\u00a0x \u3000ideo \u2028line\u2029para \u202f \u205f \u1680 \ufeffbom \u0085nel',
  'x \u00a0\n \u2028\n  \u3000  y\n\u00a0',
  "price: 100€ £5 ¥3 §2 ¶ © ® ™ — – … « » ‘quoted’ “double”",
  'a\u0000b\u0001\u001f\u007f\u000b\u000c x \u000b\u000c\n',
  '<|endoftext|> <|fim_prefix|><|fim_middle|>',
  '   ',
  '\n',
  ' x',
  'x '.repeat(50),
  'a'.repeat(MAX_PIECE_BYTES * 2 + 7) + ' ' + 'Z'.repeat(MAX_PIECE_BYTES + 1) + ' ' + '='.repeat(MAX_PIECE_BYTES * 3) + ' '.repeat(MAX_PIECE_BYTES + 5) + 'x',
  'é'.repeat(MAX_PIECE_BYTES / 2) + ' ' + '日'.repeat(MAX_PIECE_BYTES / 3) + ' ' + '—'.repeat(MAX_PIECE_BYTES / 3), // up to the cap: exact
];

/** Non-ASCII pieces over the cap: their byte chunks cut chars, so no string's encoding is the reference; the split still is. */
const OVER_LONG_NON_ASCII = 'é'.repeat(MAX_PIECE_BYTES) + ' ' + '日'.repeat(400) + ' ' + '—'.repeat(300);

/** Random strings: mostly ASCII (every code, control chars too), with non-ASCII chars of each kind mixed in. */
function randomTexts(count: number, seed: number): string[] {
  const next = random(seed);
  const atoms = ["'s", "'LL", "'ve", "'Re", "'t", '\r\n', '    ', '\t\t', '//', '123', '4567', 'é', 'É', '\u0301', '²', '٣', '\u00a0', '\u3000', '\u2028', '😀', '日本', '—', '\ufeff', '\ud800'];
  return Array.from({ length: count }, () => {
    let text = '';
    const length = 1 + Math.floor(next() * 40);
    for (let i = 0; i < length; i++) text += next() < 0.7 ? String.fromCharCode(Math.floor(next() * 128)) : atoms[Math.floor(next() * atoms.length)];
    return text;
  });
}

/** Texts chosen to cross every piece boundary the split pattern knows. */
const SAMPLES = [
  'def get_user_name(self):\n    return self._name  \n\n\n    # trailing   \n',
  'fn main() {\r\n\tlet x = HTTPServer::new();\r\n}\r\n',
  "it's they're we'VE I'LL don't\n",
  'const 😀 = "日本語のテキスト"; // émoji ünïcode Ωmega\n',
  '12345678 3.14159 0xDEADBEEF 1e-9\n',
  '):\n//comment\n  /path/to/file ):\n/x\n   \n  \t \n',
  'a <|endoftext|> b <|fim_prefix|>',
  '    \n        \n',
  '',
  ' ',
  'x'.repeat(500) + ' ' + '='.repeat(300),
];

function randomText(seed: number, length: number): string {
  const alphabet = ['a', 'Z', '_', ' ', '  ', '\n', '\r\n', '\t', '(', ')', ':', '/', '.', '9', '12', "'s", 'é', '日', '😀', 'get', 'User', 'HTTP', '<|', '|>', '    '];
  let state = seed;
  let out = '';
  while (out.length < length) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out += alphabet[state % alphabet.length];
  }
  return out;
}

describe('the piece cache', () => {
  /** Counts `piece`'s length through the cache, noting each piece it had to compute. */
  const counter = (cache: PieceCache, computed: string[]) => (piece: string) =>
    cache.count(` ${piece} `, 1, piece.length + 1, (p) => (computed.push(p), p.length));

  it('keeps every entry while its table grows, and starts anew at its limit', () => {
    const cache = new PieceCache(5_000);
    const computed: string[] = [];
    const count = counter(cache, computed);
    const words = Array.from({ length: 4_000 }, (_, i) => `w${i.toString(36)}`);
    for (const w of words) expect(count(w)).toBe(w.length);
    expect(computed).toHaveLength(4_000);
    // The table doubled many times on the way (from 256 slots); nothing it held was lost.
    for (const w of words) expect(count(w)).toBe(w.length);
    expect(computed).toHaveLength(4_000);
    for (let i = 4_000; i < 5_000; i++) count(`x${i}`);
    count('past-the-limit');
    expect(computed).toHaveLength(5_001);
    count(words[0]!);
    expect(computed.at(-1)).toBe(words[0]);
  });
});

describe('countTokens', () => {
  it('equals the length of the o200k encoding, piece cache warm or cold', () => {
    for (let round = 0; round < 2; round++) {
      for (const text of SAMPLES) expect(countTokens(text), JSON.stringify(text)).toBe(reference(text));
    }
  });

  it('equals the encoding on random mixtures of code, whitespace, unicode and special-token text', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const text = randomText(seed, 50 + (seed % 400));
      expect(countTokens(text), JSON.stringify(text)).toBe(reference(text));
    }
  });

  it('equals the encoding on a corpus of code, whitespace, numbers, contractions, unicode, and over-long pieces, with a cache that fills and clears', () => {
    try {
      for (const limit of [50_000, 3]) {
        setPieceCacheLimit(limit);
        for (const text of CORPUS.map(withoutBom)) expect(countTokens(text), JSON.stringify(text.slice(0, 80))).toBe(chunkedReference(text));
      }
    } finally {
      setPieceCacheLimit(50_000);
    }
  });

  it('equals the encoding on seeded random strings over all of ASCII and non-ASCII letters, marks, digits, spaces and symbols', () => {
    for (const text of randomTexts(2_000, 20).map(withoutBom)) expect(countTokens(text), JSON.stringify(text)).toBe(reference(text));
  });

  it('counts a byte-order mark as the one token tiktoken\'s table has for it', () => {
    // gpt-tokenizer's own encoder decodes its table with a BOM-stripping TextDecoder and splits it in two.
    expect(countTokens('\uFEFF')).toBe(1);
    expect(countTokens('\uFEFFFile with UTF-8 BOM')).toBe(reference('\uFEFFFile with UTF-8 BOM') - 1);
  });

  it('counts special-token spellings in a file as text instead of throwing', () => {
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });
});

describe('the split scanner', () => {
  it('cuts the corpus into the pieces the o200k pattern cuts it into', () => {
    for (const text of [...CORPUS, OVER_LONG_NON_ASCII]) expect(pieces(text), JSON.stringify(text.slice(0, 80))).toEqual(referencePieces(text));
  });

  it('cuts seeded random strings as the pattern does', () => {
    for (const text of randomTexts(20_000, 21)) expect(pieces(text), JSON.stringify(text)).toEqual(referencePieces(text));
  });

  it('cuts text of every Unicode class the pattern names as it does, around each backtracking choice', () => {
    // Lu, Lt, Ll, Lm, Lo, Mn, Mc, Me, Nd, Nl, No, astral letters and digits, \s beyond ASCII, symbols, lone surrogates, contractions.
    const atoms = ['Ω', 'ǅ', 'ω', 'ʰ', '日', 'ا', '\u0301', '\u0903', '\u20dd', '٣', 'Ⅻ', '½', '\u{1D400}', '\u{1D41A}', '\u{1D7D8}', '\u{10400}', '\u00a0', '\u2028', '\u3000', '\ufeff', '😀', '—', '\ud800', '\udc00', "'s", "'LL", "'Ve", "'", 'A', 'a', '7', ' ', '  ', '\n', '\r\n', '\t', '/', '.'];
    const next = random(7);
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      for (let i = 1 + Math.floor(next() * 24); i > 0; i--) text += atoms[Math.floor(next() * atoms.length)];
      expect(pieces(text), JSON.stringify(text)).toEqual(referencePieces(text));
    }
  });

  it('cuts real source text as the pattern does', () => {
    const src = path.resolve(import.meta.dirname, '../../src');
    for (const file of fs.readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(src, file), 'utf8');
      expect(pieces(text), file).toEqual(referencePieces(text));
    }
  });
});

describe('the rank table', () => {
  const built = buildRankTable();
  /** Where the built counter reads it (ranks.ts's RANKS_FILE, from dist/src/budget). */
  const RANKS_FILE = path.resolve(import.meta.dirname, '../../dist/data/o200k.ranks');

  it('finds every token of the tiktoken file at its rank, and nothing else', () => {
    const table = new RankTable(built);
    const root = path.resolve(path.dirname(createRequire(import.meta.url).resolve('gpt-tokenizer')), '..');
    const lines = fs.readFileSync(path.join(root, 'data', 'o200k_base.tiktoken'), 'latin1').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(199_000);
    for (const line of lines) {
      const [base64, rank] = line.split(' ');
      expect(table.get(Buffer.from(base64!, 'base64').toString('latin1'))).toBe(Number(rank));
    }
    for (const absent of ['', 'zzqqxxzzqqxx', '\u00ff\u00fe\u00fd\u00fc', 'get_user_name_and_more_words_than_any_token']) expect(table.get(absent)).toBeUndefined();
  });

  it('is what the build wrote, so a stale dist/data file cannot count differently', () => {
    expect(fs.existsSync(RANKS_FILE), `${RANKS_FILE} (written by npm run build)`).toBe(true);
    expect(fs.readFileSync(RANKS_FILE).equals(built)).toBe(true);
  });

  it('is taken from the bytes read ahead when they came, and read where none were', async () => {
    const dir = tempDir('sightline-ranks-');
    try {
      const [ahead, notAhead] = [path.join(dir, 'ahead.ranks'), path.join(dir, 'not-ahead.ranks')];
      fs.writeFileSync(ahead, built);
      fs.writeFileSync(notAhead, built);
      await readRankTableSoon(ahead);
      const reads = vi.spyOn(fs, 'openSync');
      try {
        expect(loadRankTable(ahead).get('hello')).toBe(new RankTable(built).get('hello'));
        expect(reads).not.toHaveBeenCalled();
        expect(loadRankTable(notAhead).get('hello')).toBe(new RankTable(built).get('hello'));
        expect(reads).toHaveBeenCalledWith(notAhead, 'r');
      } finally {
        reads.mockRestore();
      }
      await readRankTableSoon(path.join(dir, 'missing.ranks')); // resolves: the count reads (or builds) the table itself
    } finally {
      removeDir(dir);
    }
  });

  it('is read once into memory the threads share, and a thread handed that memory counts from it without reading', () => {
    const dir = tempDir('sightline-ranks-');
    try {
      const [file, elsewhere] = [path.join(dir, 'o200k.ranks'), path.join(dir, 'handed.ranks')];
      fs.writeFileSync(file, built);
      const shared = sharedRankTable(file)!;
      expect(shared).toBeInstanceOf(SharedArrayBuffer);
      expect(Buffer.from(shared).equals(built)).toBe(true);
      expect(sharedRankTable(file)).toBe(shared); // one copy per process, however many threads start
      adoptRankTable(shared, elsewhere); // as a started thread does with its workerData
      const reads = vi.spyOn(fs, 'openSync');
      try {
        expect(loadRankTable(elsewhere).get('hello')).toBe(new RankTable(built).get('hello'));
        expect(reads).not.toHaveBeenCalled();
      } finally {
        reads.mockRestore();
      }
      expect(sharedRankTable(path.join(dir, 'missing.ranks'))).toBeNull(); // each thread then builds its own
      // A thread that counted first shares the copy it counts from, not a second one.
      const counted = path.join(dir, 'counted.ranks');
      fs.writeFileSync(counted, built);
      loadRankTable(counted);
      const again = vi.spyOn(fs, 'openSync');
      try {
        expect(Buffer.from(sharedRankTable(counted)!).equals(built)).toBe(true);
        expect(again).not.toHaveBeenCalled();
      } finally {
        again.mockRestore();
      }
    } finally {
      removeDir(dir);
    }
  });

  it('refuses a file that is not a rank table, or a truncated one', () => {
    expect(() => new RankTable(Buffer.alloc(64))).toThrow(/not an o200k rank table/);
    expect(() => new RankTable(built.subarray(0, 4096))).toThrow(/truncated/);
    expect(() => new RankTable(built.subarray(0, built.length - 1))).toThrow(/truncated/);
  });
});

describe('selfCountedJson', () => {
  it('is the fixed point of counting the JSON with its own count in it, for small and large objects and fields in any place', () => {
    const values: object[] = [
      {},
      { path: 'a.ts', start_line: 1 },
      { tokens: 'first', path: 'x' },
      ...SAMPLES.map((snippet, i) => ({ path: `src/${i}.ts`, score: 0.5, snippet })),
      ...[0, 1, 2, 3].map((seed) => ({ snippet: randomText(seed, 500 + seed * 1_500), reasons: ['bm25:1.00'] })),
      { snippet: randomText(9, 12_000) }, // past 1,000 tokens: the count takes two number tokens
    ];
    for (const value of values) {
      const exact = selfCountedTokens((n) => JSON.stringify({ ...value, tokens: n }));
      expect(selfCountedJson(value, 'tokens'), JSON.stringify(value).slice(0, 80)).toBe(exact);
      expect(countTokens(JSON.stringify({ ...value, tokens: exact }))).toBe(exact);
    }
  });
});
