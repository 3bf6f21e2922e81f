/** The contents view's engine function, on a real index: its sums agree with stats, its groups with the files. */
import { describe, expect, it } from 'vitest';
import { contents, engineOver } from '../../src/engine/index.js';
import { useIndexedRepo } from '../helpers/fixture.js';
import { DASHBOARD_FILES } from './fixture.js';

const fixture = useIndexedRepo(DASHBOARD_FILES);

describe('contents', () => {
  it('weighs the index by language and top-level directory, in agreement with stats', () => {
    const c = contents(fixture.repo);
    const s = engineOver(fixture.repo).stats();
    expect(c.totals).toMatchObject({ files: s.files, chunks: s.chunks, symbols: s.symbols, bytes: s.source_bytes });
    const sum = (rows: { files: number; chunks: number; symbols: number; tokens: number }[]) =>
      rows.reduce((t, r) => ({ files: t.files + r.files, chunks: t.chunks + r.chunks, symbols: t.symbols + r.symbols, tokens: t.tokens + r.tokens }), { files: 0, chunks: 0, symbols: 0, tokens: 0 });
    const { bytes: _bytes, ...totals } = c.totals;
    expect(sum(c.by_language)).toEqual(totals);
    expect(sum(c.by_directory)).toEqual(totals);
    expect(c.by_directory.map((d) => [d.dir, d.files])).toEqual([['src', 4], ['test', 1], ['.', 2]]);
    expect(c.by_language.find((l) => l.language === 'typescript')?.files).toBe(5);
    // Binary and ignored files are not indexed, so they weigh nothing here (the dry run reports them).
    expect(c.largest_files.map((f) => f.path)).not.toContain('assets/logo.png');
    expect(c.largest_files[0]!.path).toBe('src/auth/session.ts');
    expect([...c.largest_files].sort((a, b) => b.tokens - a.tokens)).toEqual(c.largest_files);
    expect(c.embedder).toEqual({ name: 'builtin', vectors: s.chunks, pending_chunks: 0 });
  });
});
