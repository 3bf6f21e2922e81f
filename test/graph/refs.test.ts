/**
 * Reference extraction (parse/refs.ts): for every grammar, calls (with their receiver), imports
 * (module, member, local binding), type uses and inheritance, each with its line and the
 * definition it sits in.
 */
import { describe, expect, it } from 'vitest';
import { parseFile, type ParsedFile } from '../../src/parse/index.js';

/** "kind qualifier|name @line in from" lines, with imports as "import module:name as alias". */
function view(file: ParsedFile): string[] {
  return file.references.map((r) => {
    const from = r.from >= 0 ? file.symbols[r.from]!.qualified : '-';
    if (r.kind === 'import') return `import ${r.module}:${r.name} as ${r.alias === null ? '*' : JSON.stringify(r.alias)} @${r.line} in ${from}`;
    return `${r.kind} ${r.qualifier ?? ''}|${r.name} @${r.line} in ${from}`;
  });
}

const cases: [string, string, string[]][] = [
  [
    'a.ts',
    "import def, { a as b } from './x.js';\nimport * as ns from '../y';\nclass Foo<P> extends Bar implements Baz {\n  m(x: Thing<P>): void {\n    this.n();\n    ns.f();\n    new Zed();\n  }\n}\n",
    [
      'import ./x.js:default as "def" @1 in -',
      'import ./x.js:a as "b" @1 in -',
      'import ../y:* as "ns" @2 in -',
      'inherit |Bar @3 in Foo',
      'inherit |Baz @3 in Foo',
      'type |Thing @4 in Foo.m',
      'call this|n @5 in Foo.m',
      'call ns|f @6 in Foo.m',
      'call |Zed @7 in Foo.m',
    ],
  ],
  [
    'a.js',
    "const fs = require('fs');\nconst { join: j } = require('path');\nrequire('./side');\nclass A extends B {}\n",
    ['import fs:* as "fs" @1 in -', 'import path:join as "j" @2 in -', 'import ./side:* as "" @3 in -', 'inherit |B @4 in A'],
  ],
  [
    'a.py',
    'import os.path as p\nfrom .. import sib\nfrom .m import *\n\nclass K(Base, mod.Other):\n    def m(self, x: Thing) -> None:\n        self.n()\n        p.join(1)\n',
    [
      'import os.path:* as "p" @1 in -',
      'import ..:sib as "sib" @2 in -',
      'import .m:* as * @3 in -',
      'inherit |Base @5 in K',
      'inherit mod|Other @5 in K',
      'type |Thing @6 in K.m',
      'call self|n @7 in K.m',
      'call p|join @8 in K.m',
    ],
  ],
  [
    'a.go',
    'package shop\n\nimport (\n\tal "example.com/x/v2"\n\t"example.com/y/z"\n)\n\ntype S struct {\n\tBase\n}\n\nfunc (s *S) M() {\n\tal.F()\n\ts.g()\n}\n',
    [
      'namespace |shop @1 in -',
      'import example.com/x/v2:* as "al" @4 in -',
      'import example.com/y/z:* as "z" @5 in -',
      'inherit |Base @9 in S',
      'type |S @12 in S.M',
      'call al|F @13 in S.M',
      'call s|g @14 in S.M',
    ],
  ],
  [
    'a.rs',
    'mod sub;\nuse crate::a::{Item, b::Thing as T2};\n\nimpl fmt::Display for S {\n    fn fmt(&self) {\n        self.m();\n        Foo::new();\n    }\n}\n',
    [
      'import self:sub as "sub" @1 in -',
      'import crate::a:Item as "Item" @2 in -',
      'import crate::a::b:Thing as "T2" @2 in -',
      'inherit fmt|Display @4 in -',
      'type |S @4 in -',
      'call self|m @6 in S.fmt',
      'call Foo|new @7 in S.fmt',
    ],
  ],
  [
    'A.java',
    'package com.x;\nimport com.a.B;\nimport com.d.*;\npublic class A extends Base implements I1 {\n  void m(Param p) {\n    B.s();\n    new Zed();\n  }\n}\n',
    [
      'namespace |com.x @1 in -',
      'import com.a:B as "B" @2 in -',
      'import com.d:* as * @3 in -',
      'inherit |Base @4 in A',
      'inherit |I1 @4 in A',
      'type |Param @5 in A.m',
      'call B|s @6 in A.m',
      'call |Zed @7 in A.m',
    ],
  ],
  [
    'a.kt',
    'package com.x\nimport com.a.B as C\nclass A : Base(), I1 {\n  fun m() {\n    C.s()\n  }\n}\n',
    ['namespace |com.x @1 in -', 'import com.a:B as "C" @2 in -', 'inherit |Base @3 in A', 'inherit |I1 @3 in A', 'call C|s @5 in A.m'],
  ],
  [
    'a.c',
    '#include "local/x.h"\n#include <stdio.h>\nint f(Thing *t) {\n  g(1);\n  return t->ops->h();\n}\n',
    ['import local/x.h:* as * @1 in -', 'import <stdio.h>:* as * @2 in -', 'type |Thing @3 in f', 'call |g @4 in f', 'call t.ops|h @5 in f'],
  ],
  [
    'a.cpp',
    '#include "y.hpp"\nclass A : public B {\n  void m() {\n    ns::f();\n  }\n};\n',
    ['import y.hpp:* as * @1 in -', 'inherit |B @2 in A', 'call ns|f @4 in A.m'],
  ],
  [
    'a.cs',
    'using System;\nusing Al = Foo.Baz.Qux;\nnamespace App {\n  class A : Base {\n    void M(Param p) { Helper.S(); }\n  }\n}\n',
    [
      'import System:* as * @1 in -',
      'import Foo.Baz:Qux as "Al" @2 in -',
      'namespace |App @3 in -',
      'inherit |Base @4 in App.A',
      'type |Param @5 in App.A.M',
      'call Helper|S @5 in App.A.M',
    ],
  ],
  [
    'a.rb',
    "require 'foo/bar'\nrequire_relative 'sib'\nclass A < Base\n  include Mixin\n  def m\n    helper(1)\n    Foo.new(2)\n  end\nend\n",
    [
      'import foo/bar:* as * @1 in -',
      'import ./sib:* as * @2 in -',
      'inherit |Base @3 in A',
      'call |include @4 in A',
      'inherit |Mixin @4 in A',
      'call |helper @6 in A.m',
      'call |Foo @7 in A.m',
    ],
  ],
  [
    'a.php',
    "<?php\nnamespace App\\Http;\nuse App\\Models\\User as U;\nrequire_once 'x.php';\nclass K extends Base {\n  function m(Param $p) { $this->n(); U::find(); }\n}\n",
    [
      'namespace |App.Http @2 in -',
      'import App.Models:User as "U" @3 in -',
      'import x.php:* as * @4 in -',
      'inherit |Base @5 in K',
      'type |Param @6 in K.m',
      'call this|n @6 in K.m',
      'call U|find @6 in K.m',
    ],
  ],
];

describe('reference extraction', () => {
  it.each(cases)('%s', async (path, text, expected) => {
    expect(view(await parseFile(path, text))).toEqual(expected);
  });

  it('a type used many times in one definition is one reference; every call site is kept', async () => {
    const f = await parseFile('b.ts', 'function f(a: T1, b: T1): T1 {\n  g();\n  g();\n  return a;\n}\n');
    expect(view(f)).toEqual(['type |T1 @1 in f', 'call |g @2 in f', 'call |g @3 in f']);
  });

  it('type parameters and a definition\'s own name are not references', async () => {
    const f = await parseFile('c.ts', 'interface Box<T> { value: T }\nclass Pair<K, V> {}\n');
    expect(view(f)).toEqual([]);
  });

  it('can be turned off, and files without a grammar have none', async () => {
    expect((await parseFile('d.ts', 'f();\n', { references: false })).references).toEqual([]);
    expect((await parseFile('README.md', '# f()\n')).references).toEqual([]);
  });
});
