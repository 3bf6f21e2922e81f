/** Language detection by file name and file classification (code / test / doc / config / generated). */
import type { FileKind } from './types.js';

const EXT_LANG: Record<string, string> = {
  ts: 'typescript', mts: 'typescript', cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  py: 'python', pyi: 'python', pyw: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  c: 'c', h: 'c',
  cpp: 'cpp', cc: 'cpp', cxx: 'cpp', 'c++': 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp', 'h++': 'cpp', ipp: 'cpp', inl: 'cpp', tpp: 'cpp',
  cs: 'csharp',
  rb: 'ruby', rake: 'ruby', gemspec: 'ruby', ru: 'ruby',
  php: 'php', phtml: 'php',
  kt: 'kotlin', kts: 'kotlin',
  // Plain languages: no grammar, chunked by line windows (markdown by headings).
  md: 'markdown', markdown: 'markdown', mdx: 'markdown',
  json: 'json', jsonc: 'json', json5: 'json',
  yaml: 'yaml', yml: 'yaml',
  toml: 'toml',
  xml: 'xml',
  html: 'html', htm: 'html',
  css: 'css', scss: 'css', less: 'css',
  sh: 'shell', bash: 'shell', zsh: 'shell',
  sql: 'sql',
  rst: 'rst',
};

const NAME_LANG: Record<string, string> = {
  rakefile: 'ruby',
  gemfile: 'ruby',
  podfile: 'ruby',
  vagrantfile: 'ruby',
};

/** Languages that have a tree-sitter grammar in this module. */
export const TREE_SITTER_LANGUAGES: ReadonlySet<string> = new Set([
  'typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java', 'c', 'cpp', 'csharp', 'ruby', 'php', 'kotlin',
]);

export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i >= 0 ? path.slice(i + 1) : path;
}

/** What an extension may hold: `py `, `ts~` or `a b` is part of a name, not a language. */
const EXTENSION = /^[a-z0-9_+-]+$/;

/** Lower-cased extension without the dot ('' when none; dotfiles like ".env" have none). */
export function extOf(path: string): string {
  const b = baseName(path);
  const i = b.lastIndexOf('.');
  const ext = i > 0 ? b.slice(i + 1).toLowerCase() : '';
  return EXTENSION.test(ext) ? ext : '';
}

export function languageOf(path: string): string | null {
  const ext = extOf(path);
  if (ext) {
    const lang = EXT_LANG[ext];
    if (lang) return lang;
  }
  return NAME_LANG[baseName(path).toLowerCase()] ?? null;
}

const TEST_DIRS = new Set(['test', 'tests', '__tests__', '__test__', 'spec', 'specs']);
const TEST_FILE_PATTERNS: RegExp[] = [
  /^test_.+\.py$/i,
  /_test\.[a-z0-9]+$/i, // foo_test.go, foo_test.py, foo_test.rb, foo_test.cc ...
  /^conftest\.py$/,
  /\.(test|spec)\.[a-z0-9]+$/i, // foo.test.ts, foo.spec.js
  /_spec\.rb$/,
  /[a-z0-9_](Test|Tests|Spec|IT)\.(java|kt|kts|cs|php|scala|groovy|swift)$/, // FooTest.java, FooTests.cs
  /^Test[A-Z].*\.(java|kt|cs|php)$/, // TestFoo.java
];

const DOC_EXTS = new Set(['md', 'markdown', 'mdx', 'rst', 'txt', 'adoc', 'asciidoc', 'org', 'rdoc', 'tex']);
const DOC_DIRS = new Set(['docs', 'doc', 'documentation']);
/** Extensionless documentation files (README.md etc. are covered by DOC_EXTS). */
const DOC_NAMES = /^(readme|license|licence|copying|changelog|changes|history|authors|contributors|notice|contributing)$/i;

const CONFIG_EXTS = new Set([
  'json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'xml', 'properties', 'env', 'lock', 'plist', 'editorconfig',
]);
const CONFIG_NAMES = new Set([
  'package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'cargo.lock', 'gemfile.lock', 'poetry.lock', 'composer.lock',
  'pipfile.lock', 'go.sum', 'go.mod', 'bun.lockb', 'uv.lock', 'pipfile', '.gitignore', '.gitattributes', '.npmrc',
  '.editorconfig', '.env', '.prettierrc', '.eslintrc', '.babelrc', 'setup.cfg', 'tox.ini',
]);

const GENERATED_NAME_PATTERNS: RegExp[] = [
  /\.min\.(js|css|mjs)$/i,
  /\.pb\.(go|cc|h)$/,
  /_pb2(_grpc)?\.pyi?$/,
  /\.pb\.gw\.go$/,
  /_generated\.[a-z]+$/i,
  /\.generated\.[a-z]+$/i,
  /\.g\.(cs|dart)$/,
  /\.designer\.cs$/i,
  /\.bundle\.js$/i,
];

/** A comment-looking line among the first five that says the file is generated. */
const GENERATED_MARKER = /\bgenerated\b|do not edit|don't edit|dont edit/i;
const COMMENT_START = /^\s*(\/\/|#|\/\*|\*|<!--|--|;|%|'|"""|''')/;

/** Extensions where a very long average line means minified output. */
const MINIFIABLE_EXTS = new Set(['js', 'mjs', 'cjs', 'jsx', 'ts', 'tsx', 'css', 'scss', 'less', 'html', 'htm', 'svg', 'map']);
const MINIFIED_AVG_LINE = 300;
const MINIFIED_MIN_SIZE = 2000;

function looksGenerated(path: string, text: string): boolean {
  const base = baseName(path);
  if (GENERATED_NAME_PATTERNS.some((re) => re.test(base))) return true;
  // First five lines only; never scan the whole text.
  let pos = 0;
  for (let i = 0; i < 5 && pos < text.length; i++) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    const line = text.slice(pos, Math.min(nl, pos + 500));
    if (COMMENT_START.test(line) && GENERATED_MARKER.test(line)) return true;
    pos = nl + 1;
  }
  const ext = extOf(path);
  if (MINIFIABLE_EXTS.has(ext) && text.length >= MINIFIED_MIN_SIZE) {
    let newlines = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines++;
    if (text.length / (newlines + 1) > MINIFIED_AVG_LINE) return true;
  }
  return false;
}

export function fileKindOf(path: string, text: string): FileKind {
  const norm = path.replace(/\\/g, '/');
  const base = baseName(norm);
  const lowerBase = base.toLowerCase();
  const ext = extOf(norm);
  const dirs = norm.split('/').slice(0, -1).map((d) => d.toLowerCase());

  // Lock files are config even though most of them say "@generated".
  if (ext === 'lock' || (CONFIG_NAMES.has(lowerBase) && (lowerBase.includes('lock') || lowerBase === 'go.sum'))) return 'config';
  if (looksGenerated(norm, text)) return 'generated';
  if (dirs.some((d) => TEST_DIRS.has(d)) || TEST_FILE_PATTERNS.some((re) => re.test(base))) return 'test';
  if (DOC_EXTS.has(ext) || dirs.some((d) => DOC_DIRS.has(d)) || DOC_NAMES.test(base)) return 'doc';
  if (CONFIG_EXTS.has(ext) || CONFIG_NAMES.has(lowerBase)) return 'config';
  return 'code';
}
