import { describe, expect, it } from 'vitest';
import { searchTerms } from '../../src/search/index.js';
import { identifierWords, indexText, queryTerms } from '../../src/terms/index.js';

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
});
