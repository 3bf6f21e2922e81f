/**
 * The first files of many languages parsed at once (a mixed repository's first index pass) all
 * get their symbols and references: grammars must not be loaded concurrently (see grammar.ts).
 * This file must stay the first to load grammars in its worker, so it parses nothing else.
 */
import { expect, it } from 'vitest';
import { parseFile } from '../../src/parse/index.js';

const SAMPLES: Record<string, string> = {
  'a.ts': 'export function f(): void {\n  g();\n}\n',
  'a.tsx': 'export function f() {\n  return g();\n}\n',
  'a.js': 'function f() {\n  g();\n}\n',
  'a.py': 'def f():\n    g()\n',
  'a.go': 'package a\n\nfunc f() {\n\tg()\n}\n',
  'a.rs': 'fn f() {\n    g();\n}\n',
  'A.java': 'class A {\n  void f() {\n    g();\n  }\n}\n',
  'a.c': 'void f(void) {\n  g();\n}\n',
  'a.cpp': 'void f() {\n  g();\n}\n',
  'a.cs': 'class A {\n  void f() {\n    g();\n  }\n}\n',
  'a.rb': 'def f\n  g(1)\nend\n',
  'a.php': '<?php\nfunction f() {\n  g();\n}\n',
  'a.kt': 'fun f() {\n    g()\n}\n',
};

it('parses the first files of thirteen languages at once, each with its symbols and references', async () => {
  const parsed = await Promise.all(Object.entries(SAMPLES).map(async ([path, text]) => [path, await parseFile(path, text)] as const));
  for (const [path, file] of parsed) {
    expect(file.symbols.map((s) => s.name), path).toContain('f');
    expect(file.references.map((r) => `${r.kind} ${r.name}`), path).toContain('call g');
  }
});
