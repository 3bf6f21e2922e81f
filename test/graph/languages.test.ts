/**
 * One small repository per language: its imports resolve to the right files (each language's
 * own rules: relative paths, index files, tsconfig paths, package exports, go.mod, crate
 * modules, packages and namespaces, includes), and a call made through an import alias lands on
 * the definition with confidence `import`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { edge, importTargets, indexFixture, type Indexed } from './helpers.js';

interface Case {
  language: string;
  files: Record<string, string>;
  /** [importing file, module as written, files it must resolve to]. */
  imports: [string, string, string[]][];
  /** The aliased call: [file, qualifier or null, name as written, expected target]. */
  aliasCall: [string, string | null, string, string];
  /** More calls: [file, qualifier, name, expected "path:qualified/confidence"]. */
  calls?: [string, string | null, string, string][];
}

const cases: Case[] = [
  {
    language: 'typescript',
    files: {
      'tsconfig.json': '{\n  // paths map @lib/* into src/lib\n  "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["src/lib/*"] }, },\n}\n',
      'src/lib/util.ts': 'export function helper(): number {\n  return 1;\n}\n',
      'src/lib/index.ts': "export * from './util.js';\n",
      'packages/shared/package.json': '{ "name": "@acme/shared", "exports": { ".": "./dist/index.js", "./fmt": { "import": "./dist/fmt.js" } } }\n',
      'packages/shared/src/index.ts': 'export function shared(): void {}\n',
      'packages/shared/src/fmt.ts': 'export function fmt(): void {}\n',
      'src/app.ts': [
        "import { helper as h } from './lib/util.js';",
        "import * as lib from './lib';",
        "import { helper } from '@lib/util';",
        "import { shared } from '@acme/shared';",
        "import { fmt } from '@acme/shared/fmt';",
        'export function main(): void {',
        '  h();',
        '  lib.helper();',
        '  helper();',
        '  shared();',
        '  fmt();',
        '}',
        '',
      ].join('\n'),
    },
    imports: [
      ['src/app.ts', './lib/util.js', ['src/lib/util.ts']],
      ['src/app.ts', './lib', ['src/lib/index.ts']],
      ['src/app.ts', '@lib/util', ['src/lib/util.ts']],
      ['src/app.ts', '@acme/shared', ['packages/shared/src/index.ts']],
      ['src/app.ts', '@acme/shared/fmt', ['packages/shared/src/fmt.ts']],
      ['src/lib/index.ts', './util.js', ['src/lib/util.ts']],
    ],
    aliasCall: ['src/app.ts', null, 'h', 'src/lib/util.ts:helper/import'],
    calls: [
      ['src/app.ts', 'lib', 'helper', 'src/lib/util.ts:helper/import'],
      ['src/app.ts', null, 'shared', 'packages/shared/src/index.ts:shared/import'],
    ],
  },
  {
    language: 'tsx',
    files: {
      'src/Button.tsx': 'export function Button(): JSX.Element {\n  return <button />;\n}\n',
      'src/App.tsx': "import { Button as B } from './Button';\nexport function App() {\n  return <div>{B()}</div>;\n}\n",
    },
    imports: [['src/App.tsx', './Button', ['src/Button.tsx']]],
    aliasCall: ['src/App.tsx', null, 'B', 'src/Button.tsx:Button/import'],
  },
  {
    language: 'javascript',
    files: {
      'lib/math.js': 'function add(a, b) {\n  return a + b;\n}\nmodule.exports = { add };\n',
      'lib/index.js': "export { add as sum } from './math.js';\n",
      'app.js': "const { add: plus } = require('./lib/math');\nimport { sum } from './lib';\nfunction run() {\n  return plus(1, 2) + sum(3, 4);\n}\n",
      // CommonJS exports are definitions: `exports.x = …` and the properties of `module.exports = { … }`.
      'lib/util.js': "exports.slugify = function slugify(s) {\n  return s;\n};\n",
      'lib/api.js': "module.exports = {\n  fetchUser: function (id) { return id; },\n};\n",
      'cli.js': "const util = require('./lib/util');\nconst { fetchUser } = require('./lib/api');\nutil.slugify(fetchUser(1));\n",
    },
    imports: [
      ['app.js', './lib/math', ['lib/math.js']],
      ['app.js', './lib', ['lib/math.js']],
    ],
    aliasCall: ['app.js', null, 'plus', 'lib/math.js:add/import'],
    calls: [
      ['app.js', null, 'sum', 'lib/math.js:add/import'],
      ['cli.js', 'util', 'slugify', 'lib/util.js:slugify/import'],
      ['cli.js', null, 'fetchUser', 'lib/api.js:exports.fetchUser/import'],
    ],
  },
  {
    language: 'python',
    files: {
      'pkg/__init__.py': 'from .core import Engine\n',
      'pkg/core.py': 'class Engine:\n    def start(self):\n        return helper()\n\n\ndef helper():\n    return 1\n',
      'pkg/util/__init__.py': '',
      'pkg/util/text.py': 'from ..core import helper as hp\n\n\ndef slug(s):\n    return hp()\n',
      'app/main.py': [
        'from pkg import Engine',
        'from pkg.util.text import slug as s',
        'import pkg.core as c',
        '',
        '',
        'def run():',
        '    s("x")',
        '    Engine().start()',
        '    return c.helper()',
        '',
      ].join('\n'),
    },
    imports: [
      ['app/main.py', 'pkg', ['pkg/core.py']],
      ['app/main.py', 'pkg.util.text', ['pkg/util/text.py']],
      ['app/main.py', 'pkg.core', ['pkg/core.py']],
      ['pkg/util/text.py', '..core', ['pkg/core.py']],
    ],
    aliasCall: ['app/main.py', null, 's', 'pkg/util/text.py:slug/import'],
    calls: [
      ['app/main.py', 'c', 'helper', 'pkg/core.py:helper/import'],
      ['pkg/util/text.py', null, 'hp', 'pkg/core.py:helper/import'],
      ['pkg/core.py', null, 'helper', 'pkg/core.py:helper/exact'],
    ],
  },
  {
    language: 'go',
    files: {
      'go.mod': 'module example.com/shop\n\ngo 1.22\n',
      'internal/cart/cart.go': 'package cart\n\nfunc Total() int {\n\treturn sum()\n}\n',
      'internal/cart/sum.go': 'package cart\n\nfunc sum() int {\n\treturn 1\n}\n',
      'cmd/shop/main.go': 'package main\n\nimport c "example.com/shop/internal/cart"\n\nfunc main() {\n\tc.Total()\n}\n',
    },
    imports: [['cmd/shop/main.go', 'example.com/shop/internal/cart', ['internal/cart/cart.go', 'internal/cart/sum.go']]],
    aliasCall: ['cmd/shop/main.go', 'c', 'Total', 'internal/cart/cart.go:Total/import'],
    calls: [['internal/cart/cart.go', null, 'sum', 'internal/cart/sum.go:sum/exact']],
  },
  {
    language: 'rust',
    files: {
      'Cargo.toml': '[package]\nname = "shop"\nversion = "0.1.0"\n',
      'src/lib.rs': 'pub mod cart;\nmod util;\nuse crate::cart::total as t;\n\npub fn run() -> u32 {\n    t() + util::one()\n}\n',
      'src/cart.rs': 'pub fn total() -> u32 {\n    1\n}\n',
      'src/util/mod.rs': 'pub fn one() -> u32 {\n    1\n}\n',
    },
    imports: [
      ['src/lib.rs', 'self', ['src/cart.rs', 'src/util/mod.rs']],
      ['src/lib.rs', 'crate::cart', ['src/cart.rs']],
    ],
    aliasCall: ['src/lib.rs', null, 't', 'src/cart.rs:total/import'],
    calls: [['src/lib.rs', 'util', 'one', 'src/util/mod.rs:one/import']],
  },
  {
    language: 'java',
    files: {
      'src/main/java/com/shop/util/Strings.java': 'package com.shop.util;\n\npublic class Strings {\n  public static String trim(String s) {\n    return s;\n  }\n}\n',
      'src/main/java/com/shop/App.java': [
        'package com.shop;',
        '',
        'import com.shop.util.Strings;',
        'import static com.shop.util.Strings.trim;',
        '',
        'public class App {',
        '  void run() {',
        '    Strings.trim("x");',
        '    trim("y");',
        '  }',
        '}',
        '',
      ].join('\n'),
    },
    imports: [
      ['src/main/java/com/shop/App.java', 'com.shop.util', ['src/main/java/com/shop/util/Strings.java']],
      ['src/main/java/com/shop/App.java', 'com.shop.util.Strings', ['src/main/java/com/shop/util/Strings.java']],
    ],
    aliasCall: ['src/main/java/com/shop/App.java', null, 'trim', 'src/main/java/com/shop/util/Strings.java:Strings.trim/import'],
    calls: [['src/main/java/com/shop/App.java', 'Strings', 'trim', 'src/main/java/com/shop/util/Strings.java:Strings.trim/import']],
  },
  {
    language: 'kotlin',
    files: {
      'src/com/shop/util/Text.kt': 'package com.shop.util\n\nfun slug(s: String): String = s\n\nclass Fmt {\n    fun pad() {}\n}\n',
      'src/com/shop/Main.kt': 'package com.shop\n\nimport com.shop.util.slug as sl\nimport com.shop.util.Fmt\n\nfun main() {\n    sl("x")\n    Fmt().pad()\n}\n',
    },
    imports: [['src/com/shop/Main.kt', 'com.shop.util', ['src/com/shop/util/Text.kt']]],
    aliasCall: ['src/com/shop/Main.kt', null, 'sl', 'src/com/shop/util/Text.kt:slug/import'],
    calls: [['src/com/shop/Main.kt', null, 'Fmt', 'src/com/shop/util/Text.kt:Fmt/import']],
  },
  {
    language: 'c',
    files: {
      'src/util.h': 'int add(int a, int b);\n',
      'src/util.c': '#include "util.h"\n\nint add(int a, int b) {\n  return a + b;\n}\n',
      'src/main.c': '#include "util.h"\n#include <stdio.h>\n\nint main(void) {\n  return add(1, 2);\n}\n',
    },
    imports: [
      ['src/main.c', 'util.h', ['src/util.h']],
      ['src/main.c', '<stdio.h>', []],
    ],
    // C has no import aliases: the call reaches the definition through the included header.
    aliasCall: ['src/main.c', null, 'add', 'src/util.c:add/import'],
  },
  {
    language: 'cpp',
    files: {
      'include/geo/point.hpp': 'namespace geo {\nclass Point {\n public:\n  int x() const { return 0; }\n};\nint dist();\n}\n',
      'src/point.cpp': '#include "geo/point.hpp"\n\nint geo::dist() {\n  return 1;\n}\n',
      'src/main.cpp': '#include "geo/point.hpp"\n\nint main() {\n  return geo::dist();\n}\n',
    },
    imports: [['src/main.cpp', 'geo/point.hpp', ['include/geo/point.hpp']]],
    aliasCall: ['src/main.cpp', 'geo', 'dist', 'src/point.cpp:geo.dist/import'],
  },
  {
    language: 'csharp',
    files: {
      'src/Util/Text.cs': 'namespace Shop.Util {\n  public static class Text {\n    public static string Slug(string s) => s;\n  }\n}\n',
      'src/App.cs': [
        'using Shop.Util;',
        'using T = Shop.Util.Text;',
        '',
        'namespace Shop {',
        '  class App {',
        '    void Run() {',
        '      T.Slug("x");',
        '      Text.Slug("y");',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    },
    imports: [
      ['src/App.cs', 'Shop.Util', ['src/Util/Text.cs']],
    ],
    aliasCall: ['src/App.cs', 'T', 'Slug', 'src/Util/Text.cs:Shop.Util.Text.Slug/import'],
    calls: [['src/App.cs', 'Text', 'Slug', 'src/Util/Text.cs:Shop.Util.Text.Slug/import']],
  },
  {
    language: 'ruby',
    files: {
      'lib/shop/util.rb': 'module Util\n  def self.slug(s)\n    s\n  end\nend\n',
      'lib/shop/fmt.rb': 'module Fmt\n  def self.pad(s)\n    s\n  end\nend\n',
      'app.rb': "require_relative 'lib/shop/util'\nrequire 'shop/fmt'\n\nclass App\n  def run\n    Util.slug('x')\n    Fmt.pad('y')\n  end\nend\n",
    },
    imports: [
      ['app.rb', './lib/shop/util', ['lib/shop/util.rb']],
      ['app.rb', 'shop/fmt', ['lib/shop/fmt.rb']],
    ],
    // Ruby has no import aliases: the module a require brings in qualifies the call.
    aliasCall: ['app.rb', 'Util', 'slug', 'lib/shop/util.rb:Util.slug/import'],
  },
  {
    language: 'php',
    files: {
      'src/Util/Text.php': '<?php\nnamespace App\\Util;\n\nclass Text {\n  public static function slug($s) { return $s; }\n}\n',
      'src/Main.php': "<?php\nnamespace App;\n\nuse App\\Util\\Text as T;\nrequire_once __DIR__ . '/Util/Text.php';\n\nclass Main {\n  function run() { return T::slug('x'); }\n}\n",
    },
    imports: [
      ['src/Main.php', 'App.Util', ['src/Util/Text.php']],
      ['src/Main.php', './Util/Text.php', ['src/Util/Text.php']],
    ],
    aliasCall: ['src/Main.php', 'T', 'slug', 'src/Util/Text.php:Text.slug/import'],
  },
];

describe.each(cases)('$language', (c) => {
  let fx: Indexed;
  afterAll(() => fx?.close());

  it('resolves its imports to files', async () => {
    fx = await indexFixture(c.files);
    for (const [file, module, expected] of c.imports) {
      expect(importTargets(fx.store, file, module), `${file}: ${module}`).toEqual(expected);
    }
  });

  it('resolves a call made through an import alias, with confidence import', () => {
    const [file, qualifier, name, target] = c.aliasCall;
    const e = edge(fx.store, file, 'call', name, qualifier);
    expect(e.targets).toEqual([target]);
    expect(e.status).toBe('resolved');
    for (const [f, q, n, t] of c.calls ?? []) expect(edge(fx.store, f, 'call', n, q).targets, `${f}: ${q ?? ''}.${n}`).toEqual([t]);
  });
});
