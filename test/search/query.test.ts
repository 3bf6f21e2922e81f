import { describe, expect, it } from 'vitest';
import { ask, PART_WEIGHT, plainForms, readQuery } from '../../src/search/query.js';

const weightOf = (text: string, term: string) => readQuery(text).terms.find((t) => t.term === term)?.weight;

describe('reading an issue', () => {
  it('weights the title and code above prose and pasted blocks', () => {
    const issue = ['Timeout ignored by fetcher', '', 'When I call `retryPolicy` the socket hangs.', '```', 'const banana = 1', '```'].join('\n');
    expect(weightOf(issue, 'timeout')).toBe(PART_WEIGHT.title);
    expect(weightOf(issue, 'retrypolicy')).toBe(PART_WEIGHT.code);
    expect(weightOf(issue, 'socket')).toBe(PART_WEIGHT.prose);
    expect(weightOf(issue, 'banana')).toBe(PART_WEIGHT.block);
    expect(PART_WEIGHT.code).toBeGreaterThan(PART_WEIGHT.prose);
  });

  it('drops template headings, labels, HTML comments, URLs and issue boilerplate', () => {
    const issue = [
      'Crash in renderer',
      '#### What version of widget are you using?',
      '**Describe the bug**',
      '<!-- Please fill in the template -->',
      'See https://example.com/lots/of/stuff for the screenshot; I expected it to work.',
    ].join('\n');
    const terms = readQuery(issue).terms.map((t) => t.term);
    expect(terms).toEqual(expect.arrayContaining(['crash', 'renderer', 'screenshot']));
    for (const gone of ['widget', 'describe', 'template', 'example', 'stuff', 'expected', 'version', 'bug']) expect(terms).not.toContain(gone);
  });

  it('adds the plain forms of inflected words to a one-line question, lighter than the word; not to a whole issue', () => {
    expect(plainForms('walked')).toContain('walk');
    expect(plainForms('parsing')).toContain('parse');
    expect(plainForms('dependencies')).toEqual(['dependency']);
    expect(plainForms('stopped')).toContain('stop');
    // British spellings double an l: cancelled, labelling; a stem too short to tell from another word is never offered.
    expect(plainForms('cancelled')).toContain('cancel');
    expect(plainForms('labelling')).toContain('label');
    expect(plainForms('called')).toContain('call');
    expect(plainForms('called')).not.toContain('cal');
    for (const plain of ['class', 'status', 'analysis', 'walk', 'fix']) expect(plainForms(plain)).toEqual([]);
    const question = 'Files are walked twice';
    expect(weightOf(question, 'walked')).toBe(PART_WEIGHT.title);
    expect(weightOf(question, 'walk')).toBe(PART_WEIGHT.title / 2);
    expect(weightOf(question, 'file')).toBe(PART_WEIGHT.title / 2);
    // Only a word's plain forms, never a stem of a compound's part or one too short to tell from another word.
    expect(plainForms('string')).not.toContain('str');
    const named = readQuery('test_generated_files_eol for strings').terms.map((t) => t.term);
    expect(named).toEqual(expect.arrayContaining(['files', 'string']));
    for (const junk of ['file', 'fil', 'generat', 'generate', 'str']) expect(named).not.toContain(junk);
    // A whole issue is read as written: its plain forms are not added.
    expect(weightOf(question + '\n\nThe walker visits every directory.', 'walk')).toBeUndefined();
  });

  it('joins flags and config keys the way code spells them', () => {
    const read = readQuery('rg --max-count with --context\n\nAlso `ignore-paths` is ignored.');
    const terms = read.terms.map((t) => t.term);
    expect(terms).toEqual(expect.arrayContaining(['maxcount', 'max', 'count', 'context', 'ignorepaths']));
    expect(weightOf('x\n\nuse --word-regexp here', 'wordregexp')).toBe(PART_WEIGHT.code);
  });

  it('collects names written as code: backticks, camelCase, snake_case, qualified and called names', () => {
    const read = readQuery('Add `JsonParser.getNumberTypeFP()`\n\nlike set_default or Session.resolve_redirects() and tokio::select! do, via parseHTTPResponse');
    expect([...read.identifiers.keys()]).toEqual(
      expect.arrayContaining(['jsonparser', 'getnumbertypefp', 'setdefault', 'session', 'resolveredirects', 'tokio', 'select', 'parsehttpresponse']),
    );
    expect(read.identifiers.has('like')).toBe(false);
  });

  it('finds paths and stack-trace frames of common runtimes', () => {
    const issue = [
      'Crash on start',
      'In requests/sessions.py the method is wrong, see also utils.py.',
      '```',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3/site-packages/requests/adapters.py", line 12, in send_request',
      'thread main panicked at src/walk/parallel.rs:88:13',
      '    at com.fasterxml.jackson.core.JsonFactory.createParser(JsonFactory.java:1021)',
      '    at Object.render (/home/me/app/node_modules/lib/render.js:10:5)',
      'goroutine 1 [running]:',
      '/home/me/go/pkg/mod/github.com/zeromicro/go-zero@v1.3.0/core/mapping/unmarshaler.go:523 +0x1a',
      '```',
      'https://github.com/owner/repo/blob/main/lib/core/AxiosHeaders.js#L20',
    ].join('\n');
    const read = readQuery(issue);
    expect(read.paths).toEqual(
      expect.arrayContaining([
        'requests/sessions.py',
        'utils.py',
        'usr/lib/python3/site-packages/requests/adapters.py',
        'src/walk/parallel.rs',
        'JsonFactory.java',
        'home/me/app/node_modules/lib/render.js',
        'core/mapping/unmarshaler.go',
        'lib/core/AxiosHeaders.js',
      ]),
    );
    expect([...read.identifiers.keys()]).toEqual(expect.arrayContaining(['sendrequest', 'createparser', 'render']));
    expect(weightOf(issue, 'unmarshaler')).toBe(PART_WEIGHT.code);
  });

  it('reads a search-box query as a title', () => {
    const read = readQuery('getUserName');
    expect(read.terms[0]).toEqual({ term: 'getusername', weight: PART_WEIGHT.title });
    expect(read.identifiers.has('getusername')).toBe(true);
  });

  it("takes a one-line question's words and their plain forms as names it may be asking for; not a whole issue's", () => {
    const asked = readQuery('where are files walked').askedNames;
    expect(asked.get('walked')).toBe(PART_WEIGHT.title);
    expect(asked.get('walk')).toBe(PART_WEIGHT.title);
    expect(asked.get('files')).toBe(PART_WEIGHT.title);
    expect(asked.has('where')).toBe(false);
    expect(readQuery('where are files walked\n\nThe walker visits every directory.').askedNames.size).toBe(0);
  });

  it('leaves out modal verbs, as it does "should" and "can": they say how the asker feels, not what the code holds', () => {
    // "must" matched error messages ("must be a string") across the MCP TypeScript SDK and put a codemod second.
    const terms = (text: string) => readQuery(text).terms.map((t) => t.term);
    expect(terms('what must the reader skip')).toEqual(['reader', 'skip']);
    for (const modal of ['must', 'might', 'may', 'shall', 'ought', 'should', 'can']) expect(terms(`${modal} parse config`)).toEqual(['parse', 'config']);
    // A question of nothing else is still searched for its words (a Go `Must`).
    expect(ask('Must').read.terms.map((t) => t.term)).toEqual(['must']);
  });

  it("leaves out a question's frame, what the asker will do: a verb of reading before a \"to\" of purpose, and a verb of making before \"a new\" thing", () => {
    const terms = (text: string) => readQuery(text).terms.map((t) => t.term);
    // On the MCP TypeScript SDK "read" and "add" outweighed "transport", and the interface's file was not among the first 60.
    expect(terms('what must I read to add a new transport')).toEqual(['transport']);
    expect(terms('which files do we need to look at to build a new builder')).toEqual(['files', 'builder', 'file']);
    expect(terms('how do I create a new session')).toEqual(['session']);
    // A verb that is the question stays: what the code would call it.
    expect(terms('how do I add a route')).toEqual(['add', 'route']);
    expect(terms('how do I read a file')).toEqual(['read', 'file']);
    expect(terms('what should I check to add a url rule')).toEqual(['add', 'url', 'rule']);
    expect(terms('why does i read past the end')).toEqual(expect.arrayContaining(['read', 'past', 'end']));
    // Only with an asker, or a "to": a title that asks for the verb keeps it.
    expect(terms('add a new transport')).toEqual(['add', 'transport']);
    expect(terms('where is the file read')).toEqual(['file', 'read']);
    // The title line as asked is what the query's vector reads.
    expect(readQuery('what must I read to add a new transport').titleLine).toBe('what must I read to add a new transport');
    // A frame in the prose below a title is left as written: only the title is read for one.
    expect(terms('Transport closes early\n\nI read the docs to add a new stdio transport.')).toEqual(expect.arrayContaining(['read', 'add', 'stdio']));
  });
});
