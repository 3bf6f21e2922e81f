import { describe, expect, it } from 'vitest';
import { parseFile } from '../../src/parse/index.js';
import { MAX_CHUNK_LINES, MAX_CHUNK_NWS, WINDOW_LINES } from '../../src/parse/lines.js';
import { checkInvariants, fill, lineOf } from './helpers.js';

const nws = (s: string) => s.replace(/\s/g, '').length;

describe('cAST chunking', () => {
  it('splits a large class into chunks of whole methods', async () => {
    const methods = fill(8, (m) =>
      [
        `    def method_${m}(self, value):`,
        `        """Method ${m}."""`,
        fill(20, (i) => `        value = value + ${i} * self.factor_${m}`),
        `        return value  # end ${m}`,
        '',
      ].join('\n'),
    );
    const text = `class Big:\n    factor = 2\n\n${methods}\n`;
    const file = await parseFile('big.py', text);
    checkInvariants(text, file);
    expect(file.chunks.length).toBeGreaterThanOrEqual(3);
    for (const c of file.chunks) {
      expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(MAX_CHUNK_LINES + 3);
      expect(c.breadcrumb).toMatch(/^big\.py > class Big > method method_\d$/);
      expect(c.symbol).toMatch(/^Big\.method_\d$/);
    }
    // No method is cut in two: every method lies entirely inside one chunk.
    for (let m = 0; m < 8; m++) {
      const s = lineOf(text, `def method_${m}(`);
      const e = lineOf(text, `# end ${m}`);
      expect(file.chunks.some((c) => c.startLine <= s && e <= c.endLine), `method_${m}`).toBe(true);
    }
    // The class header travels with the first method.
    expect(file.chunks[0]!.startLine).toBe(1);
    expect(file.chunks[0]!.text).toContain('def method_0');
  });

  it('keeps a class header and closing brace with the neighbouring method even at the size limit', async () => {
    const method = (n: number) => [`  m${n}(v: number): number {`, fill(77, (i) => `    v += ${i};`), '    return v;', '  }'].join('\n');
    const text = `export class Tight {\n${fill(3, (n) => method(n))}\n}\n`;
    const file = await parseFile('tight.ts', text);
    checkInvariants(text, file);
    // Every chunk holds method code: neither the header line nor the closing brace is left alone.
    for (const c of file.chunks) expect(c.text).toMatch(/v \+= \d+;/);
    expect(file.chunks.length).toBe(3);
    expect(file.chunks[0]!.startLine).toBe(1);
    expect(file.chunks[2]!.endLine).toBe(text.split('\n').length - 1);
  });

  it('does not let a preprocessor line swallow the next line (nodes that end at column 0)', async () => {
    const defines = fill(60, (i) => `#define VALUE_${i} ${i}`);
    const body = fill(30, (i) => `    total += VALUE_${i} * scale;`);
    const text = `${defines}\nint compute(int scale)\n{\n    int total = 0;\n${body}\n    return total;\n}\n`;
    const file = await parseFile('defs.c', text);
    checkInvariants(text, file);
    expect(file.chunks.map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 60],
      [61, text.split('\n').length - 1],
    ]);
    expect(file.chunks[1]!.symbol).toBe('compute');
  });

  it('names a chunk after its function or class rather than a bigger constant', async () => {
    const text = `SETTINGS = {\n${fill(12, (i) => `    "key_${i}": ${i},`)}\n}\n\n\ndef use(key):\n    return SETTINGS[key]\n`;
    const file = await parseFile('conf.py', text);
    expect(file.chunks.length).toBe(1);
    expect(file.chunks[0]!.symbol).toBe('use');
    expect(file.chunks[0]!.breadcrumb).toBe('conf.py > function use');
    const onlyConst = await parseFile('c.py', 'A = 1\nBIG = [\n    1,\n    2,\n]\n');
    expect(onlyConst.chunks[0]!.symbol).toBe('BIG');
  });

  it('merges small neighbouring functions into one chunk', async () => {
    const text = fill(12, (i) => `function f${i}(a) {\n  return a + ${i};\n}\n`);
    const file = await parseFile('small.js', text);
    checkInvariants(text, file);
    expect(file.symbols.map((s) => s.name)).toEqual(Array.from({ length: 12 }, (_, i) => `f${i}`));
    expect(file.chunks.length).toBe(1);
    expect(file.chunks[0]!.startLine).toBe(1);
    expect(file.chunks[0]!.endLine).toBe(lineOf(text, 'a + 11;') + 1);
  });

  it('keeps leading comments and decorators with the definition that follows', async () => {
    const body = (name: string) => fill(45, (i) => `  const ${name}${i} = compute(${i}, "${name}");`);
    const text = [
      'export function first() {',
      body('a'),
      '}',
      '',
      '/**',
      ' * Second does things.',
      ' */',
      'export function second() {',
      body('b'),
      '}',
      '',
    ].join('\n');
    const file = await parseFile('src/two.ts', text);
    checkInvariants(text, file);
    const docLine = lineOf(text, '/**');
    const holder = file.chunks.find((c) => c.text.includes('export function second'))!;
    expect(holder.startLine).toBe(docLine);
    expect(holder.symbol).toBe('second');
    expect(holder.breadcrumb).toBe('src/two.ts > function second');
    const first = file.chunks.find((c) => c.text.includes('export function first'))!;
    expect(first.text).not.toContain('Second does things');
  });

  it('keeps TypeScript member decorators with their method', async () => {
    const method = (n: number) =>
      [`  @Get('/r${n}')`, `  route${n}(req: Request) {`, fill(12, (i) => `    this.log(req, ${i}, ${n});`), '  }'].join('\n');
    const text = `export class Api {\n${fill(8, (n) => method(n))}\n}\n`;
    const file = await parseFile('api.ts', text);
    checkInvariants(text, file);
    expect(file.chunks.length).toBeGreaterThan(1);
    for (let n = 0; n < 8; n++) {
      const deco = lineOf(text, `@Get('/r${n}')`);
      const holder = file.chunks.filter((c) => c.startLine <= deco && deco <= c.endLine);
      expect(holder.length).toBe(1);
      expect(holder[0]!.text).toContain(`route${n}(req`);
    }
  });

  it('respects the size limits on ordinary code', async () => {
    const text = fill(40, (f) => `def f${f}(x):\n${fill(6 + (f % 9), (i) => `    x = call_something(x, ${i}, "padding text")`)}\n    return x\n\n`);
    const file = await parseFile('many.py', text);
    checkInvariants(text, file);
    expect(file.chunks.length).toBeGreaterThan(5);
    for (const c of file.chunks) {
      expect(nws(c.text)).toBeLessThanOrEqual(MAX_CHUNK_NWS + 100);
      expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(MAX_CHUNK_LINES + 3);
    }
    // Each function is whole in some chunk (all of them fit the limit on their own).
    for (const s of file.symbols) {
      expect(file.chunks.some((c) => c.startLine <= s.startLine && s.endLine <= c.endLine), s.name).toBe(true);
    }
  });

  it('cuts an unsplittable huge node (a long string literal) into line windows', async () => {
    const text = `const TEMPLATE = \`\n${fill(300, (i) => `line ${i} of a long template literal with some words`)}\n\`;\n\nfunction after() { return 1; }\n`;
    const file = await parseFile('tpl.js', text);
    checkInvariants(text, file);
    expect(file.chunks.length).toBeGreaterThanOrEqual(4);
    for (const c of file.chunks) expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(MAX_CHUNK_LINES + 3);
    const inside = lineOf(text, 'line 150 of');
    expect(file.chunks.find((c) => c.startLine <= inside && inside <= c.endLine)!.symbol).toBe('TEMPLATE');
  });

  it('covers text inside a big Python docstring (rows no child node covers)', async () => {
    // Only the first line has an escape sequence: string_content's only child sits on that line.
    const text = `def f():\n    """Title \\n escaped\n${fill(200, (i) => `    Doc line ${i} without escapes`)}\n    """\n    return 1\n`;
    const file = await parseFile('doc.py', text);
    checkInvariants(text, file);
    for (const c of file.chunks) expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(MAX_CHUNK_LINES + 3);
  });
});

describe('line-window fallback', () => {
  it('chunks plain text by windows with the path as breadcrumb', async () => {
    const text = fill(200, (i) => `This is sentence number ${i} of a plain text file.`);
    const file = await parseFile('notes/readme.txt', text);
    expect(file.language).toBeNull();
    expect(file.kind).toBe('doc');
    expect(file.symbols).toEqual([]);
    checkInvariants(text, file);
    expect(file.chunks.length).toBeGreaterThanOrEqual(4);
    for (const c of file.chunks) {
      expect(c.breadcrumb).toBe('notes/readme.txt');
      expect(c.symbol).toBeNull();
      expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(WINDOW_LINES);
    }
    // Windows overlap a little when there is no blank line to split at.
    expect(file.chunks[1]!.startLine).toBeLessThanOrEqual(file.chunks[0]!.endLine);
  });

  it('prefers blank lines as window boundaries', async () => {
    const para = (p: number) => fill(9, (i) => `Paragraph ${p} line ${i}.`);
    const text = fill(20, (p) => para(p) + '\n');
    const file = await parseFile('story.txt', text);
    checkInvariants(text, file);
    const lines = text.split('\n');
    for (const c of file.chunks) {
      expect(lines[c.startLine - 1]).toMatch(/^Paragraph \d+ line 0\.$/);
      if (c.endLine < lines.length - 1) expect(lines[c.endLine]).toBe('');
    }
  });

  it('splits Markdown on headings with heading breadcrumbs', async () => {
    const section = (title: string, n: number) => `${title}\n\n${fill(n, (i) => `Text ${title.replace(/#/g, '').trim()} ${i} with several words in it.`)}\n`;
    const text = [section('# Guide', 5), section('## Install', 40), section('## Usage', 40), section('### Flags', 30), '```sh\n# not a heading\nrun it\n```\n'].join('\n');
    const file = await parseFile('docs/guide.md', text);
    expect(file.language).toBe('markdown');
    checkInvariants(text, file);
    const at = (needle: string) => file.chunks.find((c) => c.startLine <= lineOf(text, needle) && lineOf(text, needle) <= c.endLine)!;
    expect(at('Text Install 20 ').breadcrumb).toBe('docs/guide.md > # Guide > ## Install');
    expect(at('Text Usage 20 ').breadcrumb).toBe('docs/guide.md > # Guide > ## Usage');
    expect(at('Text Flags 20 ').breadcrumb).toBe('docs/guide.md > # Guide > ## Usage > ### Flags');
    expect(at('# not a heading').breadcrumb).toBe('docs/guide.md > # Guide > ## Usage > ### Flags');
    for (const c of file.chunks) expect(c.symbol).toBeNull();
  });

  it('uses windows for JSON and YAML', async () => {
    const text = JSON.stringify({ items: Array.from({ length: 150 }, (_, i) => ({ id: i })) }, null, 2);
    const file = await parseFile('data/items.json', text);
    expect(file.language).toBe('json');
    expect(file.kind).toBe('config');
    checkInvariants(text, file);
    expect(file.chunks.length).toBeGreaterThan(1);
    for (const c of file.chunks) expect(c.breadcrumb).toBe('data/items.json');
  });
});
