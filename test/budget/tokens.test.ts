import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countTokens, selfCountedJson, selfCountedTokens } from '../../src/budget/index.js';
import { buildRankTable, RankTable } from '../../src/budget/ranks.js';

const { encode } = createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as {
  encode: (text: string, options: { disallowedSpecial: Set<string> }) => number[];
};
const reference = (text: string) => encode(text, { disallowedSpecial: new Set() }).length;

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

  it('counts a byte-order mark as the one token tiktoken\'s table has for it', () => {
    // gpt-tokenizer's own encoder decodes its table with a BOM-stripping TextDecoder and splits it in two.
    expect(countTokens('\uFEFF')).toBe(1);
    expect(countTokens('\uFEFFFile with UTF-8 BOM')).toBe(reference('\uFEFFFile with UTF-8 BOM') - 1);
  });

  it('counts special-token spellings in a file as text instead of throwing', () => {
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
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
