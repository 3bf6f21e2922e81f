/**
 * JavaScript / TypeScript module resolution in a workspace: local packages through `exports`
 * (conditions, nested conditions, subpath patterns) that name built `.mjs` / `.cjs` / `.d.mts` /
 * `.d.cts` outputs mapped back to their sources, `imports` (`#internal/*`), and tsconfig `paths`
 * and `baseUrl` through `extends` chains, read from JSON with comments and trailing commas
 * without changing what its strings say.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExploreEnvelope } from '../../src/engine/index.js';
import { explore } from '../../src/engine/explore.js';
import { importTargets, openRepo, type OpenedRepo } from './helpers.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const WORKSPACE: Record<string, string> = {
  'package.json': json({ name: 'monorepo', private: true, workspaces: ['packages/*'] }),
  'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
  // Built outputs (dist/) are not in the repository: every target is found as its source.
  'packages/core/package.json': json({
    name: '@scope/core',
    type: 'module',
    exports: {
      '.': {
        import: { types: './dist/index.d.mts', default: './dist/index.mjs' },
        require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
      },
      './sub': { require: { types: './dist/sub.d.cts', default: './dist/sub.cjs' } },
      './util/*': { types: './dist/util/*.d.mts', default: './dist/util/*.mjs' },
      './package.json': './package.json',
    },
    imports: { '#internal/*': { types: './src/internal/*.ts', default: './dist/internal/*.js' } },
  }),
  'packages/core/src/index.ts': "import { log } from '#internal/log';\n\nexport function greet(name: string): string {\n  log(name);\n  return `hi ${name}`;\n}\n",
  'packages/core/src/sub.ts': 'export function part(): number {\n  return 1;\n}\n',
  'packages/core/src/util/fmt.ts': 'export function fmt(n: number): string {\n  return String(n);\n}\n',
  'packages/core/src/internal/log.ts': 'export function log(message: string): void {\n  console.log(message);\n}\n',
  // A package that ships plain JavaScript: its `.mjs` is the file itself.
  'packages/plain/package.json': json({ name: '@scope/plain', exports: { '.': { import: './lib/plain.mjs', require: './lib/plain.cjs' } } }),
  'packages/plain/lib/plain.mjs': 'export function plain() {\n  return 1;\n}\n',
  'packages/plain/lib/plain.cjs': 'exports.plain = function plain() {\n  return 1;\n};\n',
  'packages/app/package.json': json({ name: '@scope/app', dependencies: { '@scope/core': 'workspace:*' } }),
  'packages/app/test/core.test.ts': [
    "import { describe, expect, it } from 'vitest';",
    "import { greet } from '@scope/core';",
    "import { part } from '@scope/core/sub';",
    "import { fmt } from '@scope/core/util/fmt';",
    "import { plain } from '@scope/plain';",
    '',
    "describe('core', () => {",
    "  it('greets', () => {",
    "    expect(greet('ada')).toBe('hi ada');",
    '    expect(fmt(part()) + plain()).toBe("11");',
    '  });',
    '});',
    '',
  ].join('\n'),
};

describe('a workspace package through its exports', () => {
  let fx: OpenedRepo;
  beforeAll(async () => {
    fx = await openRepo(WORKSPACE);
  });
  afterAll(() => fx.close());

  it('resolves conditions, nested conditions and subpath patterns to sources, and plain .mjs as written', () => {
    const at = (module: string) => importTargets(fx.repo.store, 'packages/app/test/core.test.ts', module);
    expect(at('@scope/core')).toEqual(['packages/core/src/index.ts']);
    expect(at('@scope/core/sub')).toEqual(['packages/core/src/sub.ts']);
    expect(at('@scope/core/util/fmt')).toEqual(['packages/core/src/util/fmt.ts']);
    expect(at('@scope/plain')).toEqual(['packages/plain/lib/plain.mjs']);
    expect(at('vitest')).toEqual([]);
  });

  it('resolves `#internal/*` through the importer package’s imports', () => {
    expect(importTargets(fx.repo.store, 'packages/core/src/index.ts', '#internal/log')).toEqual(['packages/core/src/internal/log.ts']);
  });

  it('lists the test file’s calls among the callers of a core function', () => {
    for (const [anchor, path] of [
      ['greet', 'packages/core/src/index.ts'],
      ['part', 'packages/core/src/sub.ts'],
      ['log', 'packages/core/src/internal/log.ts'],
    ]) {
      const e = explore(fx.repo, { relation: 'callers', anchor }) as ExploreEnvelope;
      expect(e.status, JSON.stringify(e)).toBe('ok');
      expect(e.anchor.matches.map((m) => m.path)).toEqual([path]);
      const callers = e.results.map((r) => `${r.path}:${r.start_line}/${r.confidence}`);
      if (anchor === 'log') expect(callers).toEqual(['packages/core/src/index.ts:4/import']);
      else expect(callers).toEqual([`packages/app/test/core.test.ts:${anchor === 'greet' ? 9 : 10}/import`]);
    }
  });
});

describe('tsconfig paths and baseUrl', () => {
  let fx: OpenedRepo;
  beforeAll(async () => {
    fx = await openRepo({
      // Comments, trailing commas, and strings holding `//`, `/*` and `, ]` that must stay as written.
      'tsconfig.paths.json': [
        '{',
        '  // no baseUrl: targets are relative to this file, wherever it is extended from',
        '  "compilerOptions": {',
        '    /* "@wrong/*": ["nowhere/*"] */',
        '    "paths": {',
        '      "@odd/*": ["./libs/odd, ]/*"],',
        '      "@url//*": ["./libs/url/*"],',
        '      "@glob/*": ["./libs/glob/*", ],',
        '    },',
        '  },',
        '}',
        '',
      ].join('\n'),
      'tsconfig.base.json': '{\n  "extends": "./tsconfig.paths.json", // a chain: base -> paths\n  "compilerOptions": { "strict": true, },\n}\n',
      'apps/web/tsconfig.json': '{ "extends": "../../tsconfig.base.json" }\n',
      'apps/web/src/main.ts': [
        "import { odd } from '@odd/thing';",
        "import { url } from '@url//thing';",
        "import { glob } from '@glob/thing';",
        'odd(); url(); glob();',
        '',
      ].join('\n'),
      'libs/odd, ]/thing.ts': 'export function odd(): void {}\n',
      'libs/url/thing.ts': 'export function url(): void {}\n',
      'libs/glob/thing.ts': 'export function glob(): void {}\n',
      // baseUrl alone makes bare specifiers relative to it.
      'apps/api/tsconfig.json': '{\n  "compilerOptions": {\n    "baseUrl": "./src", // bare imports start here\n  },\n}\n',
      'apps/api/src/server.ts': "import { route } from 'routes/index';\nroute();\n",
      'apps/api/src/routes/index.ts': 'export function route(): void {}\n',
      // A base that is not installed (a shared config package) leaves the config's own paths.
      'apps/cli/tsconfig.json': '{\n  "extends": ["@tsconfig/strictest/tsconfig.json"],\n  "compilerOptions": { "paths": { "~/*": ["./src, ]/*"], }, },\n}\n',
      'apps/cli/main.ts': "import { run } from '~/run';\nrun();\n",
      'apps/cli/src, ]/run.ts': 'export function run(): void {}\n',
    });
  });
  afterAll(() => fx.close());

  it('follows extends to paths relative to the config that declares them, strings as written', () => {
    const at = (module: string) => importTargets(fx.repo.store, 'apps/web/src/main.ts', module);
    expect(at('@odd/thing')).toEqual(['libs/odd, ]/thing.ts']);
    expect(at('@url//thing')).toEqual(['libs/url/thing.ts']);
    expect(at('@glob/thing')).toEqual(['libs/glob/thing.ts']);
  });

  it('resolves bare specifiers from baseUrl', () => {
    expect(importTargets(fx.repo.store, 'apps/api/src/server.ts', 'routes/index')).toEqual(['apps/api/src/routes/index.ts']);
  });

  it('keeps a config’s own paths when a base it extends is not installed', () => {
    expect(importTargets(fx.repo.store, 'apps/cli/main.ts', '~/run')).toEqual(['apps/cli/src, ]/run.ts']);
  });
});
