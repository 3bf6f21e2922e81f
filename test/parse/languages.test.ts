/**
 * One sample per tree-sitter language: a class-like container with a big method (so that the
 * container is split and the method gets chunks of its own), a small method and a free function.
 * Line numbers are located through unique marker text ("end bar" comments) so the fixtures stay
 * readable; the parser computes them independently from the syntax tree.
 */
import { describe, expect, it } from 'vitest';
import { parseFile } from '../../src/parse/index.js';
import { checkInvariants, fill, lineOf, sym } from './helpers.js';

interface Expected {
  qualified: string;
  name: string;
  kind: string;
  /** Unique text on the first line of the definition. */
  from: string;
  /** Unique text on the last line of the definition. */
  to: string;
}

interface Case {
  path: string;
  language: string;
  text: string;
  symbols: Expected[];
  /** Breadcrumb of the chunks inside the big method. */
  methodCrumb: string;
  methodSymbol: string;
  /** Unique text of a line deep inside the big method. */
  inside: string;
}

const N = 90; // filler statements: the big method alone exceeds the 80-line chunk limit

const cases: Case[] = [
  {
    path: 'src/foo.ts',
    language: 'typescript',
    text: `import { x } from './x.js';

/** Doc comment. */
export class Foo {
  private n = 0;

  bar(x: number): number {
    let y = x;
${fill(N, (i) => `    y += ${i};`)}
    return y;
  } // end bar

  baz(): string {
    return 'baz';
  } // end baz
} // end Foo

export function helper(a: number, b: number): number {
  return a + b;
} // end helper

export const arrow = (s: string): number => s.length; // arrow
`,
    symbols: [
      { qualified: 'Foo', name: 'Foo', kind: 'class', from: 'export class Foo', to: '// end Foo' },
      { qualified: 'Foo.bar', name: 'bar', kind: 'method', from: 'bar(x: number)', to: '// end bar' },
      { qualified: 'Foo.baz', name: 'baz', kind: 'method', from: 'baz(): string', to: '// end baz' },
      { qualified: 'helper', name: 'helper', kind: 'function', from: 'export function helper', to: '// end helper' },
      { qualified: 'arrow', name: 'arrow', kind: 'function', from: '// arrow', to: '// arrow' },
    ],
    methodCrumb: 'src/foo.ts > class Foo > method bar',
    methodSymbol: 'Foo.bar',
    inside: 'y += 45;',
  },
  {
    path: 'src/widget.tsx',
    language: 'tsx',
    text: `import React from 'react';

interface Props { label: string }

export class Widget extends React.Component<Props> {
  render() {
    let total = 0;
${fill(N, (i) => `    total += ${i};`)}
    return <div className="w">{total}</div>;
  } // end render

  small() {
    return <span />;
  } // end small
} // end Widget

export function Button({ label }: Props) {
  return <button>{label}</button>;
} // end Button
`,
    symbols: [
      { qualified: 'Props', name: 'Props', kind: 'interface', from: 'interface Props', to: 'interface Props' },
      { qualified: 'Widget', name: 'Widget', kind: 'class', from: 'export class Widget', to: '// end Widget' },
      { qualified: 'Widget.render', name: 'render', kind: 'method', from: 'render() {', to: '// end render' },
      { qualified: 'Widget.small', name: 'small', kind: 'method', from: 'small() {', to: '// end small' },
      { qualified: 'Button', name: 'Button', kind: 'function', from: 'export function Button', to: '// end Button' },
    ],
    methodCrumb: 'src/widget.tsx > class Widget > method render',
    methodSymbol: 'Widget.render',
    inside: 'total += 45;',
  },
  {
    path: 'lib/foo.mjs',
    language: 'javascript',
    text: `import fs from 'node:fs';

export class Foo {
  bar(x) {
    let y = x;
${fill(N, (i) => `    y += ${i};`)}
    return y;
  } // end bar

  baz() {
    return 'baz';
  } // end baz
} // end Foo

function helper(a, b) {
  return a + b;
} // end helper

const arrow = (s) => s.length; // arrow
`,
    symbols: [
      { qualified: 'Foo', name: 'Foo', kind: 'class', from: 'export class Foo', to: '// end Foo' },
      { qualified: 'Foo.bar', name: 'bar', kind: 'method', from: 'bar(x) {', to: '// end bar' },
      { qualified: 'Foo.baz', name: 'baz', kind: 'method', from: 'baz() {', to: '// end baz' },
      { qualified: 'helper', name: 'helper', kind: 'function', from: 'function helper', to: '// end helper' },
      { qualified: 'arrow', name: 'arrow', kind: 'function', from: '// arrow', to: '// arrow' },
    ],
    methodCrumb: 'lib/foo.mjs > class Foo > method bar',
    methodSymbol: 'Foo.bar',
    inside: 'y += 45;',
  },
  {
    path: 'pkg/foo.py',
    language: 'python',
    text: `import os

MAX_SIZE = 10


@decorator
class Foo(Base):
    """Doc."""

    def bar(self, x):
        y = x
${fill(N, (i) => `        y += ${i}`)}
        return y  # end bar

    def baz(self):
        return "baz"  # end baz


def helper(a, b):
    return a + b  # end helper
`,
    symbols: [
      { qualified: 'MAX_SIZE', name: 'MAX_SIZE', kind: 'constant', from: 'MAX_SIZE = 10', to: 'MAX_SIZE = 10' },
      { qualified: 'Foo', name: 'Foo', kind: 'class', from: '@decorator', to: '# end baz' },
      { qualified: 'Foo.bar', name: 'bar', kind: 'method', from: 'def bar', to: '# end bar' },
      { qualified: 'Foo.baz', name: 'baz', kind: 'method', from: 'def baz', to: '# end baz' },
      { qualified: 'helper', name: 'helper', kind: 'function', from: 'def helper', to: '# end helper' },
    ],
    methodCrumb: 'pkg/foo.py > class Foo > method bar',
    methodSymbol: 'Foo.bar',
    inside: 'y += 45',
  },
  {
    path: 'cmd/foo.go',
    language: 'go',
    text: `package main

import "fmt"

// Foo is a thing.
type Foo struct {
	N int
} // end Foo

func (f *Foo) Bar(x int) int {
	y := x
${fill(N, (i) => `\ty += ${i}`)}
	return y
} // end Bar

func (f Foo) Baz() string {
	return "baz"
} // end Baz

func Helper(a, b int) int {
	fmt.Println(a)
	return a + b
} // end Helper
`,
    symbols: [
      { qualified: 'Foo', name: 'Foo', kind: 'struct', from: 'type Foo struct', to: '// end Foo' },
      { qualified: 'Foo.Bar', name: 'Bar', kind: 'method', from: 'func (f *Foo) Bar', to: '// end Bar' },
      { qualified: 'Foo.Baz', name: 'Baz', kind: 'method', from: 'func (f Foo) Baz', to: '// end Baz' },
      { qualified: 'Helper', name: 'Helper', kind: 'function', from: 'func Helper', to: '// end Helper' },
    ],
    methodCrumb: 'cmd/foo.go > method Foo.Bar',
    methodSymbol: 'Foo.Bar',
    inside: 'y += 45',
  },
  {
    path: 'src/lib.rs',
    language: 'rust',
    text: `use std::fmt;

/// A thing.
#[derive(Debug)]
pub struct Foo {
    n: i32,
} // end Foo

impl Foo {
    pub fn bar(&self, x: i32) -> i32 {
        let mut y = x;
${fill(N, (i) => `        y += ${i};`)}
        y
    } // end bar

    fn baz(&self) -> &str {
        "baz"
    } // end baz
}

pub trait Greet {
    fn greet(&self) -> String; // greet
} // end Greet

pub fn helper(a: i32, b: i32) -> i32 {
    a + b
} // end helper
`,
    symbols: [
      { qualified: 'Foo', name: 'Foo', kind: 'struct', from: 'pub struct Foo', to: '// end Foo' },
      { qualified: 'Foo.bar', name: 'bar', kind: 'method', from: 'pub fn bar', to: '// end bar' },
      { qualified: 'Foo.baz', name: 'baz', kind: 'method', from: 'fn baz', to: '// end baz' },
      { qualified: 'Greet', name: 'Greet', kind: 'trait', from: 'pub trait Greet', to: '// end Greet' },
      { qualified: 'Greet.greet', name: 'greet', kind: 'method', from: '// greet', to: '// greet' },
      { qualified: 'helper', name: 'helper', kind: 'function', from: 'pub fn helper', to: '// end helper' },
    ],
    methodCrumb: 'src/lib.rs > impl Foo > method bar',
    methodSymbol: 'Foo.bar',
    inside: 'y += 45;',
  },
  {
    path: 'src/main/java/app/Foo.java',
    language: 'java',
    text: `package app;

import java.util.List;

@Deprecated
public class Foo {
    private int n;

    public int bar(int x) {
        int y = x;
${fill(N, (i) => `        y += ${i};`)}
        return y;
    } // end bar

    String baz() {
        return "baz";
    } // end baz
} // end Foo

interface Helper {
    int help(int a); // help
} // end Helper
`,
    symbols: [
      { qualified: 'Foo', name: 'Foo', kind: 'class', from: '@Deprecated', to: '// end Foo' },
      { qualified: 'Foo.bar', name: 'bar', kind: 'method', from: 'public int bar', to: '// end bar' },
      { qualified: 'Foo.baz', name: 'baz', kind: 'method', from: 'String baz()', to: '// end baz' },
      { qualified: 'Helper', name: 'Helper', kind: 'interface', from: 'interface Helper', to: '// end Helper' },
      { qualified: 'Helper.help', name: 'help', kind: 'method', from: '// help', to: '// help' },
    ],
    methodCrumb: 'src/main/java/app/Foo.java > class Foo > method bar',
    methodSymbol: 'Foo.bar',
    inside: 'y += 45;',
  },
  {
    path: 'src/foo.c',
    language: 'c',
    text: `#include <stdio.h>

struct Foo {
    int n;
}; /* end Foo */

static int *bar(struct Foo *f, int x)
{
    int y = x;
${fill(N, (i) => `    y += ${i};`)}
    return 0;
} /* end bar */

int helper(int a, int b) { return a + b; } /* helper */
`,
    symbols: [
      { qualified: 'Foo', name: 'Foo', kind: 'struct', from: 'struct Foo {', to: '/* end Foo */' },
      { qualified: 'bar', name: 'bar', kind: 'function', from: 'static int *bar', to: '/* end bar */' },
      { qualified: 'helper', name: 'helper', kind: 'function', from: '/* helper */', to: '/* helper */' },
    ],
    methodCrumb: 'src/foo.c > function bar',
    methodSymbol: 'bar',
    inside: 'y += 45;',
  },
  {
    path: 'src/foo.cpp',
    language: 'cpp',
    text: `#include <vector>

namespace app {

class Foo : public Base {
public:
    int bar(int x) {
        int y = x;
${fill(N, (i) => `        y += ${i};`)}
        return y;
    } // end bar
    int baz() const;
}; // end Foo

} // end app

int app::Foo::baz() const {
    return 2;
} // end baz

int helper(int a, int b) {
    return a + b;
} // end helper
`,
    symbols: [
      { qualified: 'app', name: 'app', kind: 'module', from: 'namespace app', to: '// end app' },
      { qualified: 'app.Foo', name: 'Foo', kind: 'class', from: 'class Foo', to: '// end Foo' },
      { qualified: 'app.Foo.bar', name: 'bar', kind: 'method', from: 'int bar(int x)', to: '// end bar' },
      { qualified: 'app.Foo.baz', name: 'baz', kind: 'method', from: 'int app::Foo::baz', to: '// end baz' },
      { qualified: 'helper', name: 'helper', kind: 'function', from: 'int helper', to: '// end helper' },
    ],
    methodCrumb: 'src/foo.cpp > module app > class Foo > method bar',
    methodSymbol: 'app.Foo.bar',
    inside: 'y += 45;',
  },
  {
    path: 'src/Foo.cs',
    language: 'csharp',
    text: `using System;

namespace App.Core
{
    [Serializable]
    public class Foo
    {
        public int Bar(int x)
        {
            int y = x;
${fill(N, (i) => `            y += ${i};`)}
            return y;
        } // end Bar

        public string Baz() { return "baz"; } // Baz
    } // end Foo

    public struct Point { public int X; } // Point
} // end ns
`,
    symbols: [
      { qualified: 'App.Core', name: 'Core', kind: 'module', from: 'namespace App.Core', to: '// end ns' },
      { qualified: 'App.Core.Foo', name: 'Foo', kind: 'class', from: '[Serializable]', to: '// end Foo' },
      { qualified: 'App.Core.Foo.Bar', name: 'Bar', kind: 'method', from: 'public int Bar', to: '// end Bar' },
      { qualified: 'App.Core.Foo.Baz', name: 'Baz', kind: 'method', from: '// Baz', to: '// Baz' },
      { qualified: 'App.Core.Point', name: 'Point', kind: 'struct', from: '// Point', to: '// Point' },
    ],
    methodCrumb: 'src/Foo.cs > module App.Core > class Foo > method Bar',
    methodSymbol: 'App.Core.Foo.Bar',
    inside: 'y += 45;',
  },
  {
    path: 'lib/foo.rb',
    language: 'ruby',
    text: `require 'set'

module Shop
  class Foo < Base
    def bar(x)
      y = x
${fill(N, (i) => `      y += ${i}`)}
      y
    end # end bar

    def self.build
      new
    end # end build
  end # end Foo
end # end Shop

def helper(a, b)
  a + b
end # end helper
`,
    symbols: [
      { qualified: 'Shop', name: 'Shop', kind: 'module', from: 'module Shop', to: '# end Shop' },
      { qualified: 'Shop.Foo', name: 'Foo', kind: 'class', from: 'class Foo', to: '# end Foo' },
      { qualified: 'Shop.Foo.bar', name: 'bar', kind: 'method', from: 'def bar', to: '# end bar' },
      { qualified: 'Shop.Foo.build', name: 'build', kind: 'method', from: 'def self.build', to: '# end build' },
      { qualified: 'helper', name: 'helper', kind: 'function', from: 'def helper', to: '# end helper' },
    ],
    methodCrumb: 'lib/foo.rb > module Shop > class Foo > method bar',
    methodSymbol: 'Shop.Foo.bar',
    inside: 'y += 45',
  },
  {
    path: 'src/Foo.php',
    language: 'php',
    text: `<?php
namespace App;

class Foo extends Base
{
    public function bar($x)
    {
        $y = $x;
${fill(N, (i) => `        $y += ${i};`)}
        return $y;
    } // end bar

    private function baz() { return 'baz'; } // baz
} // end Foo

function helper($a, $b)
{
    return $a + $b;
} // end helper
`,
    symbols: [
      { qualified: 'Foo', name: 'Foo', kind: 'class', from: 'class Foo', to: '// end Foo' },
      { qualified: 'Foo.bar', name: 'bar', kind: 'method', from: 'public function bar', to: '// end bar' },
      { qualified: 'Foo.baz', name: 'baz', kind: 'method', from: '// baz', to: '// baz' },
      { qualified: 'helper', name: 'helper', kind: 'function', from: 'function helper', to: '// end helper' },
    ],
    methodCrumb: 'src/Foo.php > class Foo > method bar',
    methodSymbol: 'Foo.bar',
    inside: '$y += 45;',
  },
  {
    path: 'app/src/Foo.kt',
    language: 'kotlin',
    text: `package app

import kotlin.math.max

class Foo(val n: Int) : Base() {
    fun bar(x: Int): Int {
        var y = x
${fill(N, (i) => `        y += ${i}`)}
        return y
    } // end bar

    fun baz(): String = "baz" // baz
} // end Foo

interface Greeter {
    fun greet(): String // greet
} // end Greeter

fun helper(a: Int, b: Int): Int {
    return a + b
} // end helper
`,
    symbols: [
      { qualified: 'Foo', name: 'Foo', kind: 'class', from: 'class Foo', to: '// end Foo' },
      { qualified: 'Foo.bar', name: 'bar', kind: 'method', from: 'fun bar', to: '// end bar' },
      { qualified: 'Foo.baz', name: 'baz', kind: 'method', from: '// baz', to: '// baz' },
      { qualified: 'Greeter', name: 'Greeter', kind: 'interface', from: 'interface Greeter', to: '// end Greeter' },
      { qualified: 'Greeter.greet', name: 'greet', kind: 'method', from: '// greet', to: '// greet' },
      { qualified: 'helper', name: 'helper', kind: 'function', from: 'fun helper', to: '// end helper' },
    ],
    methodCrumb: 'app/src/Foo.kt > class Foo > method bar',
    methodSymbol: 'Foo.bar',
    inside: 'y += 45',
  },
];

describe('parseFile per language', () => {
  it('covers all 13 tree-sitter languages', () => {
    expect(new Set(cases.map((c) => c.language)).size).toBe(13);
  });

  for (const c of cases) {
    describe(c.language, () => {
      it('detects the language and reports symbols with names, kinds and 1-based spans', async () => {
        const file = await parseFile(c.path, c.text);
        expect(file.language).toBe(c.language);
        expect(file.kind).toBe('code');
        checkInvariants(c.text, file);
        for (const e of c.symbols) {
          const s = sym(file, e.qualified);
          expect({ name: s.name, kind: s.kind, startLine: s.startLine, endLine: s.endLine }, e.qualified).toEqual({
            name: e.name,
            kind: e.kind,
            startLine: lineOf(c.text, e.from),
            endLine: lineOf(c.text, e.to),
          });
        }
      });

      it('gives the big method chunks whose breadcrumb names it', async () => {
        const file = await parseFile(c.path, c.text);
        const line = lineOf(c.text, c.inside);
        const holders = file.chunks.filter((ch) => ch.startLine <= line && line <= ch.endLine);
        expect(holders.length).toBeGreaterThan(0);
        for (const ch of holders) {
          expect(ch.breadcrumb).toBe(c.methodCrumb);
          expect(ch.symbol).toBe(c.methodSymbol);
        }
        // The method is longer than one chunk, so it is split, and no chunk exceeds the limits by much.
        const inMethod = file.chunks.filter((ch) => ch.symbol === c.methodSymbol);
        expect(inMethod.length).toBeGreaterThanOrEqual(2);
        for (const ch of file.chunks) expect(ch.endLine - ch.startLine + 1).toBeLessThanOrEqual(83);
      });

      it('keeps signatures to the definition line', async () => {
        const file = await parseFile(c.path, c.text);
        const method = sym(file, c.methodSymbol);
        const lines = c.text.split('\n');
        expect(method.signature).toBe(lines.find((l) => l.includes(method.name + '('))!.trim());
      });
    });
  }
});
