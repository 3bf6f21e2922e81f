import { afterEach, describe, expect, it } from 'vitest';
import { locate } from '../../src/engine/locate.js';
import { isCasedName, mayHoldName, nameFilter } from '../../src/store/name-filter.js';
import { NAMES_UNICODE } from '../../src/store/schema.js';
import type { Repo } from '../../src/engine/index.js';
import { indexedRepo, type IndexedRepo } from '../helpers/fixture.js';

/** Names of `count` made-up identifiers, deterministic: mixed case, digits, `_` and `$`. */
function madeUpNames(count: number, seed: number): string[] {
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$';
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, (_, i) => `${'xyzXYZ_$'[i % 8]}${Array.from({ length: 3 + Math.floor(next() * 12) }, () => chars[Math.floor(next() * chars.length)]).join('')}`);
}

describe('names filter', () => {
  it('holds every cased whole name of the texts, case kept, whatever the characters around it', () => {
    const names = madeUpNames(3_000, 11);
    const texts = [
      names.slice(0, 1_000).join(' '),
      names.slice(1_000, 2_000).join('.'),
      names.slice(2_000).map((n) => `(${n})`).join('\n'),
      'const Größe = ΣΑΣ + İd; $El._Private; über-Über',
    ];
    const filter = nameFilter(texts);
    const cased = names.filter(isCasedName);
    expect(cased.length).toBeGreaterThan(2_000);
    expect(cased.filter((n) => !mayHoldName(filter, n))).toEqual([]);
    for (const n of ['Größe', 'ΣΑΣ', 'İd', '$El', '_Private', 'Über']) expect(mayHoldName(filter, n), n).toBe(true);
  });

  it('rules out nearly every cased name the texts do not hold as written: other case, part of a longer name, absent', () => {
    const names = madeUpNames(2_000, 5);
    const filter = nameFilter([names.join(' ')]);
    const absent = [
      ...names.slice(0, 500).map((n) => n.toUpperCase()),
      ...names.slice(500, 1_000).map((n) => n.slice(0, -1)),
      ...madeUpNames(1_000, 99),
    ].filter((n) => isCasedName(n) && !names.includes(n));
    expect(absent.length).toBeGreaterThan(1_000);
    const falsePositives = absent.filter((n) => mayHoldName(filter, n)).length;
    // Sized for about 1 %: a filter that stopped telling names apart would pass most of them.
    expect(falsePositives / absent.length).toBeLessThan(0.03);
  });

  it('holds every cased whole word the locate test finds, over text mixing scripts, marks, astral letters and lone surrogates', () => {
    // The oracle is the regular expression itself: every maximal run of [\p{L}\p{N}_$] is a whole word to it.
    const alphabet = ['a', 'Z', '7', '_', '$', ' ', '.', '(', '\n', 'é', 'É', 'ß', 'ª', 'µ', '²', '٣', 'Ж', 'ж', 'Σ', 'ǅ', '中', '\u0308', '\u200d', '𝑥', '𝐀', '😀', '\ud835', '\udc65', '-'];
    let seed = 3;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let checked = 0;
    for (let round = 0; round < 50; round++) {
      const texts = Array.from({ length: 3 }, () => Array.from({ length: 400 }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
      const filter = nameFilter(texts);
      for (const text of texts) {
        for (const [word] of text.matchAll(/[\p{L}\p{N}_$]+/gu)) {
          if (!isCasedName(word)) continue;
          checked++;
          expect(mayHoldName(filter, word), JSON.stringify(word)).toBe(true);
        }
      }
    }
    expect(checked).toBeGreaterThan(1_000);
  });

  it('does not join names across chunk texts, and holds nothing for texts without a cased name', () => {
    const filter = nameFilter(['return Foo', 'Bar()']);
    expect([mayHoldName(filter, 'Foo'), mayHoldName(filter, 'Bar'), mayHoldName(filter, 'FooBar')]).toEqual([true, true, false]);
    const lower = nameFilter(['return foo(bar_baz)']);
    expect(lower.length).toBe(0);
    expect(mayHoldName(lower, 'Foo')).toBe(false);
  });

  it('answers only for one run of identifier characters that lower case would change', () => {
    expect(['Documented', 'getUser', '$El', 'Ärger', 'ΣΑΣ'].map(isCasedName)).toEqual([true, true, true, true, true]);
    expect(['get_user', 'naïve', 'a.B', 'Foo bar', '中文', ''].map(isCasedName)).toEqual([false, false, false, false, false, false]);
  });
});

/** Whether the names filter of `fileId` may hold `name`, as `locate` asks. */
const mayHold = (repo: Repo, fileId: number, name: string) => repo.store.chunks.filesMayHoldName([fileId], name).has(fileId);

describe('locate through the names filter', () => {
  let fixture: IndexedRepo | undefined;
  afterEach(() => fixture?.cleanup());

  /** Many files that say "documented" in prose; two that use the name `Documented`. */
  const files: Record<string, string> = {
    'src/documented.ts': 'export class Documented {\n  note = 1;\n}\n',
    'src/use.ts': "import { Documented } from './documented';\nexport const d = new Documented();\n",
  };
  for (let i = 0; i < 30; i++) files[`src/prose${i}.ts`] = `// this module is documented in the guide, as documented before\nexport const value${i} = ${i};\n`;

  it('finds every reference as written without unpacking the files that only say the word in another case', async () => {
    fixture = await indexedRepo({ files });
    const { repo } = fixture;
    const before = locate(repo, { query: 'Documented' });
    expect(before.results.map((r) => `${r.kind} ${r.path}:${r.start_line}`)).toEqual([
      'definition src/documented.ts:1',
      'reference src/use.ts:1',
      'reference src/use.ts:2',
    ]);
    // Break the packed text of every file without the name: unpacking any of them would throw.
    repo.store.db.prepare("UPDATE file_texts SET packed = x'00' WHERE file_id IN (SELECT id FROM files WHERE path LIKE 'src/prose%')").run();
    const again = fixture.reopen();
    expect(locate(again, { query: 'Documented' }).results).toEqual(before.results);
    // The lower-case word is in all of them: that answer reads them and meets the broken text.
    expect(() => locate(again, { query: 'documented' })).toThrow();
  });

  it('trusts filters built under another Unicode version (another Node.js) in nothing until the next pass builds them again', async () => {
    fixture = await indexedRepo({ files });
    const { repo } = fixture;
    const fileId = repo.store.files.get('src/prose0.ts')!.id;
    expect(mayHold(repo, fileId, 'Documented')).toBe(false);
    repo.store.setMeta(NAMES_UNICODE, '1.0');
    const older = fixture.reopen();
    expect(mayHold(older, fileId, 'Documented')).toBe(true);
    const before = older.store.db.prepare('SELECT names FROM file_texts WHERE file_id = ?').pluck().get(fileId);
    await older.index();
    expect(older.store.getMeta(NAMES_UNICODE)).toBe(process.versions.unicode);
    expect(older.store.db.prepare('SELECT names FROM file_texts WHERE file_id = ?').pluck().get(fileId)).toEqual(before);
    expect(mayHold(fixture.reopen(), fileId, 'Documented')).toBe(false);
  });

  it('reads every file, as before, where an older index has no filter yet', async () => {
    fixture = await indexedRepo({ files });
    fixture.repo.store.db.prepare('UPDATE file_texts SET names = NULL').run();
    const again = fixture.reopen();
    expect(locate(again, { query: 'Documented' }).total).toBe(3);
    again.store.db.prepare("UPDATE file_texts SET packed = x'00' WHERE file_id IN (SELECT id FROM files WHERE path LIKE 'src/prose%')").run();
    const third = fixture.reopen();
    expect(() => locate(third, { query: 'Documented' })).toThrow();
  });
});
