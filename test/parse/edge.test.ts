import { describe, expect, it } from 'vitest';
import { parseFile } from '../../src/parse/index.js';
import { checkInvariants, fill, lineOf, sym } from './helpers.js';

describe('edge cases', () => {
  it('keeps line numbers right after emoji and CJK text', async () => {
    const text = [
      '// 😀 日本語のコメント 🎉🎉 — ünïcödé',
      'const greeting = "こんにちは 👋 世界";',
      '/* 中文注释 🚀 */',
      'function target(a) {',
      '  return a + "✓ 完了";',
      '}',
      '',
      'class Ünïcode { métho() { return "😀"; } }',
      '',
    ].join('\n');
    const file = await parseFile('src/mb.js', text);
    checkInvariants(text, file);
    const fn = sym(file, 'target');
    expect([fn.startLine, fn.endLine]).toEqual([4, 6]);
    expect(fn.signature).toBe('function target(a) {');
    expect(sym(file, 'greeting').startLine).toBe(2);
    const cls = sym(file, 'Ünïcode');
    expect([cls.startLine, cls.endLine]).toEqual([8, 8]);
    expect(sym(file, 'Ünïcode.métho').kind).toBe('method');
    const holder = file.chunks.find((c) => c.startLine <= 4 && 6 <= c.endLine)!;
    expect(holder.text.split('\n').slice(4 - holder.startLine, 7 - holder.startLine)).toEqual([
      'function target(a) {',
      '  return a + "✓ 完了";',
      '}',
    ]);
  });

  it('keeps multi-byte line numbers right in a split Python file', async () => {
    const text = `# ${'🙂'.repeat(50)}\n# ${'漢字'.repeat(50)}\n${fill(60, (i) => `X${i} = "${'é'.repeat(20)} ${i}"`)}\n\ndef after_emoji():\n    return "🎉"\n`;
    const file = await parseFile('mb.py', text);
    checkInvariants(text, file);
    const fn = sym(file, 'after_emoji');
    expect([fn.startLine, fn.endLine]).toEqual([lineOf(text, 'def after_emoji'), lineOf(text, 'return "🎉"')]);
    expect(fn.startLine).toBe(64);
  });

  it('handles CRLF line endings: right lines, no \\r in chunk text or signatures', async () => {
    const lf = ['import os', '', 'class Foo:', '    def bar(self):', '        return 1', '', 'def baz():', '    return 2', ''].join('\n');
    const crlf = lf.replace(/\n/g, '\r\n');
    const file = await parseFile('crlf.py', crlf);
    checkInvariants(crlf, file);
    const bar = sym(file, 'Foo.bar');
    expect([bar.startLine, bar.endLine]).toEqual([4, 5]);
    expect(bar.signature).toBe('def bar(self):');
    const baz = sym(file, 'baz');
    expect([baz.startLine, baz.endLine]).toEqual([7, 8]);
    for (const c of file.chunks) expect(c.text).not.toContain('\r');
    const lfFile = await parseFile('crlf.py', lf);
    expect(file.chunks).toEqual(lfFile.chunks);
    expect(file.symbols).toEqual(lfFile.symbols);
  });

  it('handles CRLF in plain text windows', async () => {
    const text = fill(100, (i) => `row ${i}`).replace(/\n/g, '\r\n') + '\r\n';
    const file = await parseFile('a.txt', text);
    checkInvariants(text, file);
    expect(file.chunks[0]!.text.startsWith('row 0\nrow 1\n')).toBe(true);
  });

  it('returns no chunks for empty and blank files', async () => {
    for (const text of ['', '\n', '   \n\t\n  ', '\r\n\r\n']) {
      for (const path of ['e.ts', 'e.py', 'e.md', 'e.txt']) {
        const file = await parseFile(path, text);
        expect(file.chunks, `${path} ${JSON.stringify(text)}`).toEqual([]);
        expect(file.symbols).toEqual([]);
      }
    }
  });

  it('handles a file with only comments', async () => {
    const text = '// one\n// two\n\n/* three\n   four */\n';
    const file = await parseFile('c.ts', text);
    checkInvariants(text, file);
    expect(file.symbols).toEqual([]);
    expect(file.chunks.length).toBe(1);
    expect(file.chunks[0]).toMatchObject({ startLine: 1, endLine: 5, symbol: null, breadcrumb: 'c.ts' });
  });

  it('does not throw on syntax errors and still finds the valid definitions', async () => {
    const text = ['def broken(:', '    pass', '', 'class Ok:', '    def fine(self):', '        return 1', '', ')))) ((( ]]', ''].join('\n');
    const file = await parseFile('bad.py', text);
    checkInvariants(text, file);
    expect(file.language).toBe('python');
    expect(sym(file, 'Ok.fine').kind).toBe('method');

    const garbage = '}}}{{{ class ( function => ;;; \n'.repeat(50) + '\u0000\uffff\ud800';
    for (const path of ['x.ts', 'x.go', 'x.rs', 'x.java', 'x.c', 'x.cpp', 'x.cs', 'x.rb', 'x.php', 'x.kt']) {
      const f = await parseFile(path, garbage);
      checkInvariants(garbage, f);
    }
  });

  it('handles a 1 MB file', async () => {
    const big = fill(30000, (i) => (i % 40 === 0 ? `\ndef func_${i}(a, b):` : `    a = a + b * ${i}  # filler ${i}`)) + '\n';
    expect(big.length).toBeGreaterThan(1_000_000);
    const file = await parseFile('big.py', big);
    checkInvariants(big, file);
    expect(file.symbols.length).toBe(750);
    expect(sym(file, 'func_29960').startLine).toBe(lineOf(big, 'def func_29960('));
  });

  it('falls back to windows for minified code instead of parsing it', async () => {
    const line = 'var a=1;function b(c){return c+1}'.repeat(200);
    const text = `${line}\n${line}\n`;
    const file = await parseFile('dist/app.min.js', text);
    expect(file.kind).toBe('generated');
    checkInvariants(text, file);
    expect(file.symbols).toEqual([]);
  });

  it('truncates signatures to 200 characters', async () => {
    const params = Array.from({ length: 60 }, (_, i) => `p${i}`).join(', ');
    const text = `function wide(${params}) {\n  return 1;\n}\n`;
    const file = await parseFile('w.js', text);
    const s = sym(file, 'wide');
    expect(s.signature.length).toBe(200);
    expect(s.signature.startsWith('function wide(p0, p1')).toBe(true);
  });

  it('is safe to call concurrently for many languages', async () => {
    const inputs: [string, string][] = [
      ['a.ts', 'export function a() {}\n'],
      ['b.py', 'def b():\n    pass\n'],
      ['c.go', 'package c\nfunc C() {}\n'],
      ['d.rs', 'fn d() {}\n'],
      ['e.rb', 'def e; end\n'],
    ];
    const results = await Promise.all(inputs.map(([p, t]) => parseFile(p, t)));
    expect(results.map((r) => r.symbols.map((s) => s.name))).toEqual([['a'], ['b'], ['C'], ['d'], ['e']]);
  });

  it('reads JS/TS exports, arrow functions, namespaces and nested functions', async () => {
    const text = [
      'export default class { run() {} }',
      'export const handler = async (event) => {',
      '  function inner() { return 1; }',
      '  return inner();',
      '};',
      'export namespace Outer.Inner { export function deep() {} }',
      'export type Id = string;',
      'export enum Color { Red }',
      'const { a, b } = obj;',
      "const fs = require('fs');",
      'let counter = 0;',
      'export const LIMIT = 10;',
    ].join('\n');
    const file = await parseFile('x.ts', text);
    const got = file.symbols.map((s) => `${s.kind} ${s.qualified} ${s.startLine}-${s.endLine}`);
    expect(got).toEqual([
      'class default 1-1',
      'method default.run 1-1',
      'function handler 2-5',
      'function handler.inner 3-3',
      'module Outer.Inner 6-6',
      'function Outer.Inner.deep 6-6',
      'type Id 7-7',
      'enum Color 8-8',
      'variable counter 11-11',
      'constant LIMIT 12-12',
    ]);
  });

  it('finds Python definitions nested in function bodies (decorator wrappers), not local variables', async () => {
    const text = [
      'def deco(f):',
      '    CACHE = {}',
      '    @functools.wraps(f)',
      '    def wrapper(*args):',
      '        return f(*args)',
      '    return wrapper',
      '',
      'class Outer:',
      '    class Inner:',
      '        def m(self):',
      '            pass',
    ].join('\n');
    const file = await parseFile('deco.py', text);
    expect(file.symbols.map((s) => `${s.kind} ${s.qualified} ${s.startLine}-${s.endLine}`)).toEqual([
      'function deco 1-6',
      'function deco.wrapper 3-5',
      'class Outer 8-11',
      'class Outer.Inner 9-11',
      'method Outer.Inner.m 10-11',
    ]);
  });

  it('treats C++ content in a .h header as C++', async () => {
    const text = '#pragma once\nnamespace ns {\nclass Widget {\n public:\n  void draw() {}\n};\n}\n';
    const file = await parseFile('include/widget.h', text);
    expect(file.language).toBe('cpp');
    expect(sym(file, 'ns.Widget.draw').kind).toBe('method');
    const c = await parseFile('include/plain.h', '#ifndef P_H\n#define P_H\nstruct P { int x; };\nint area(struct P *p);\nstatic inline int twice(int v) { return 2 * v; }\n#endif\n');
    expect(c.language).toBe('c');
    expect(c.symbols.map((s) => `${s.kind} ${s.qualified}`)).toEqual(['struct P', 'function twice']);
  });
});
