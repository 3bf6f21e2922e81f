/**
 * What part a file plays in its repository, read from its path and its kind.
 * A fix lands in the code itself far more often than in its tests, benchmarks,
 * docs, examples, translation tables, fixtures, generated or vendored copies,
 * which repeat the code's words and would otherwise outrank it.
 */

export type FileRole = 'code' | 'config' | 'test' | 'bench' | 'doc' | 'example' | 'locale' | 'fixture' | 'generated' | 'vendored' | 'other';

/** Directory names that say what their files are; checked innermost first. */
const ROLE_DIRS: Record<string, FileRole> = {
  vendor: 'vendored', vendored: 'vendored', third_party: 'vendored', 'third-party': 'vendored', thirdparty: 'vendored',
  fixtures: 'fixture', fixture: 'fixture', __fixtures__: 'fixture', testdata: 'fixture', __mocks__: 'fixture', __snapshots__: 'fixture',
  locale: 'locale', locales: 'locale', i18n: 'locale', l10n: 'locale', translations: 'locale',
  bench: 'bench', benches: 'bench', benchmark: 'bench', benchmarks: 'bench',
  example: 'example', examples: 'example', sample: 'example', samples: 'example', demo: 'example', demos: 'example',
};
const BENCH_FILE = /[._-]bench(mark)?s?\.[a-z0-9]+$/i;
/**
 * Source extensions the parser has no language for. A file the parser calls
 * code but that has neither a language nor one of these extensions is an
 * asset: a completion script, a man page template, a licence, a data file.
 */
const OTHER_SOURCE = /\.(swift|scala|sc|lua|dart|exs?|erl|hrl|hs|ml|mli|clj|cljs|m|mm|r|jl|zig|nim|vue|svelte|pl|pm|groovy|gradle|fs|fsx|vb|cr|v|sol|elm|coffee|ps1|bat|cmake|mk|proto|graphql|gql|sql|css|scss|less|html?)$/i;

/**
 * The role of a file from its path, the kind the parser gave it (code, test,
 * doc, config, generated) and its language (null when the parser knows none).
 */
export function fileRole(path: string, kind: string, language?: string | null): FileRole {
  if (kind === 'generated') return 'generated';
  const dirs = path.toLowerCase().split('/').slice(0, -1);
  for (let i = dirs.length - 1; i >= 0; i--) {
    const role = ROLE_DIRS[dirs[i]!];
    if (role) return role;
  }
  if (kind === 'test' || kind === 'doc' || kind === 'config') return kind;
  if (BENCH_FILE.test(path)) return 'bench';
  return language === null && !OTHER_SOURCE.test(path) ? 'other' : 'code';
}

/**
 * Words that, in a query's title, say the issue is about files of that role
 * ("benchmark", "typo in docs"). Words that name the subject of a project as
 * often as its files are not among them: "test" in a test runner's issues,
 * "locale" or "config" in issues fixed in the code that loads them.
 */
export const ROLE_WORDS: Partial<Record<FileRole, readonly string[]>> = {
  bench: ['bench', 'benchmark', 'benchmarks'],
  doc: ['doc', 'docs', 'documentation', 'readme', 'typo'],
  example: ['example', 'examples'],
};
