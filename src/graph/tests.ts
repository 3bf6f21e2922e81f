/**
 * Which test files cover a source file by naming convention: foo.test.ts / foo.spec.js,
 * test_foo.py / foo_test.py, foo_test.go, FooTest.java / FooTests.cs / FooSpec.kt, foo_spec.rb.
 * A package entry file (index.ts, __init__.py, mod.rs) is named by its directory.
 */
import { byCodeUnit } from '../order.js';

const SUBJECT_PATTERNS: RegExp[] = [
  /^test_(.+)$/i,
  /^(.+?)[._-](test|tests|spec|specs)$/i,
  /^(.+?)(Test|Tests|Spec|IT)$/,
  /^Test([A-Z].*)$/,
];
const ENTRY_STEMS = new Set(['index', '__init__', 'mod', 'lib', 'main']);

function stem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.indexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** The name a test file is about ('session' for test_session.py, SessionTest.java, session.spec.ts). */
export function testSubject(testPath: string): string | null {
  const base = testPath.slice(testPath.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  for (const re of SUBJECT_PATTERNS) {
    const m = re.exec(base);
    if (m) return m[1]!.toLowerCase();
  }
  return null;
}

/** The name a source file goes by in test names. */
export function sourceSubject(path: string): string {
  const s = stem(path);
  if (!ENTRY_STEMS.has(s)) return s.toLowerCase();
  const dir = path.slice(0, Math.max(0, path.lastIndexOf('/')));
  return (dir.slice(dir.lastIndexOf('/') + 1) || s).toLowerCase();
}

/** Directories shared from the root: how close two files are. */
export function closeness(a: string, b: string): number {
  const x = a.split('/').slice(0, -1);
  const y = b.split('/').slice(0, -1);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/** Test files (among `tests`) named after `path`, nearest first. */
export function testsByName(path: string, tests: string[]): string[] {
  const subject = sourceSubject(path);
  return tests
    .filter((t) => t !== path && testSubject(t) === subject)
    .sort((a, b) => closeness(path, b) - closeness(path, a) || byCodeUnit(a, b));
}
