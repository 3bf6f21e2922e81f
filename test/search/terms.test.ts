import { describe, expect, it } from 'vitest';
import { searchTerms } from '../../src/search/index.js';
import { forEachTerm, identifierWords, indexText, queryTerms } from '../../src/terms/index.js';

describe('code-aware terms', () => {
  it('splits camelCase, snake_case and acronyms, keeping the whole identifier', () => {
    expect(indexText('getUserName')).toBe('getusername get user name');
    expect(indexText('get_user_name')).toBe('getusername get user name');
    expect(indexText('GetUserNAME')).toBe('getusername get user name');
    expect(identifierWords('HTTPServer')).toEqual(['http', 'server']);
    expect(identifierWords('parseHTTPResponse2xx')).toEqual(['parse', 'http', 'response', '2', 'xx']);
  });

  it('keeps non-ASCII words', () => {
    expect(queryTerms('café 日本語')).toEqual(['café', '日本語']);
  });

  it('drops stopwords from queries unless nothing else is left', () => {
    const terms = searchTerms('where are the files walked');
    expect(terms.slice(0, 2)).toEqual(['files', 'walked']); // then their plain forms, lighter
    expect(terms).toEqual(expect.arrayContaining(['file', 'walk']));
    for (const stop of ['where', 'are', 'the']) expect(terms).not.toContain(stop);
    expect(searchTerms('the')).toEqual(['the']);
    expect(searchTerms('!!! ???')).toEqual([]);
  });

  it('skips absurdly long tokens such as hashes', () => {
    expect(queryTerms('a'.repeat(100) + ' ok')).toEqual(['ok']);
  });

  it('finds identifiers exactly where /[\\p{L}\\p{N}_]+/gu matches, in every script and at every odd code unit', () => {
    // The reference: the identifiers of the definition, each emitted as forEachTerm's rules say.
    const expected = (text: string) =>
      [...text.matchAll(/[\p{L}\p{N}_]+/gu)].flatMap(([raw]) => {
        if (raw.length > 64) return [];
        const words = identifierWords(raw);
        return words.length > 1 ? [[words.join(''), true], ...words.map((w) => [w, false])] : words.map((w) => [w, true]);
      });
    const emitted = (text: string) => {
      const out: [string, boolean][] = [];
      forEachTerm(text, (term, whole) => out.push([term, whole]));
      return out;
    };
    const samples = [
      'getUserName(a_b, 42); // café',
      'naïve 日本語のテキスト Ⅻ x² ٣٤ under_score_',
      'e\u0301 decomposed: a combining mark ends the word',
      'astral \u{1D400}bold \u{1D7D8}digit \u{1F600}emoji x\u{10400}y',
      'lone \uD800 high, lone \uDC00 low, pair at the end \u{1D400}',
      'edge\uD835', // a high surrogate as the last code unit
      '_', '', '   ', 'a'.repeat(64) + ' ' + 'b'.repeat(65),
    ];
    // And every character class met at random: letters, digits, marks, punctuation, spaces, surrogates.
    let seed = 11;
    const pool = ['a', 'Z', '9', '_', ' ', '.', 'é', '\u0301', '日', '٣', '²', '\uD835', '\uDC00', '\u{1D400}', '\u{1F600}', '-', '\n', 'ß', 'Ⅻ'];
    for (let n = 0; n < 200; n++) {
      let text = '';
      for (let i = 0; i < 30; i++) text += pool[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % pool.length];
      samples.push(text);
    }
    for (const text of samples) expect(emitted(text), JSON.stringify(text)).toEqual(expected(text));
    expect(emitted('x\u{1D41A}y z')).toEqual([['x\u{1D41A}y', true], ['z', true]]); // a letter beyond the BMP, inside a word
    expect(emitted('e\u0301t')).toEqual([['e', true], ['t', true]]);
  });
});
