/** Citation status: verified, stale, unverifiable; one stat per file per request; the confirming-read cap. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CitationProbe, MAX_CONFIRMING_READS } from '../../src/cite/index.js';
import { citationProbe, type GatedSearchEnvelope } from '../../src/engine/index.js';
import { packContext } from '../../src/engine/context.js';
import { gatedLocate } from '../../src/engine/locate.js';
import { read } from '../../src/engine/read.js';
import { gatedSearch } from '../../src/engine/search-gate.js';
import { age } from '../helpers/fixture.js';
import { filesMentioning, indexed, type Indexed } from '../budget/helpers.js';

let fx: Indexed | undefined;
afterEach(() => {
  fx?.cleanup();
  fx = undefined;
});

/**
 * Indexes `files`, then sets their mtimes a minute back: written before the
 * index read them, so an untouched file is settled by its stat alone.
 */
async function settled(files: Record<string, string>): Promise<Indexed> {
  const f = await indexed(files);
  for (const rel of Object.keys(files)) age(f.root, rel);
  return f;
}

function touch(root: string, rel: string, secondsAhead = 5): void {
  const t = new Date(Date.now() + secondsAhead * 1000);
  fs.utimesSync(path.join(root, rel), t, t);
}

/** Rewrites a file with different bytes of the same length. */
function sameSizeEdit(root: string, rel: string): void {
  const abs = path.join(root, rel);
  const text = fs.readFileSync(abs, 'utf8');
  fs.writeFileSync(abs, text.replace('return', 'RETURN'));
  touch(root, rel);
}

describe('citation status', () => {
  it('untouched → verified; edited after indexing → stale; deleted → unverifiable; results are returned either way', async () => {
    fx = await settled(filesMentioning('src', 4, 'lantern'));
    fs.appendFileSync(path.join(fx.root, 'src/part1.ts'), '// grown\n');
    sameSizeEdit(fx.root, 'src/part2.ts');
    fs.rmSync(path.join(fx.root, 'src/part3.ts'));
    const e = gatedSearch(fx.repo, { query: 'lantern', k: 10 }) as GatedSearchEnvelope;
    const by = Object.fromEntries(e.results.map((r) => [r.path, r]));
    expect(Object.keys(by).sort()).toEqual(['src/part0.ts', 'src/part1.ts', 'src/part2.ts', 'src/part3.ts']);
    expect(by['src/part0.ts']).toMatchObject({ citation_status: 'verified' });
    expect(by['src/part0.ts']).not.toHaveProperty('citation_note');
    expect(by['src/part1.ts']).toMatchObject({ citation_status: 'stale', citation_note: expect.stringMatching(/^content_changed: .*find the symbol by name/) });
    expect(by['src/part2.ts']).toMatchObject({ citation_status: 'stale', citation_note: expect.stringMatching(/^content_changed: /) });
    expect(by['src/part3.ts']).toMatchObject({ citation_status: 'unverifiable', citation_note: expect.stringMatching(/^missing: /) });
  });

  it('a touch that leaves the bytes alone is confirmed by a digest read and stays verified', async () => {
    fx = await settled(filesMentioning('src', 2, 'lantern'));
    touch(fx.root, 'src/part0.ts');
    const probe = citationProbe(fx.repo);
    expect(probe.check('src/part0.ts')).toEqual({ citation_status: 'verified' });
    expect(probe.check('src/part1.ts')).toEqual({ citation_status: 'verified' });
    expect(probe.confirmingReads).toBe(1); // only the touched file was read
  });

  it('a path the index never recorded is unverifiable', async () => {
    fx = await settled(filesMentioning('src', 1, 'lantern'));
    expect(citationProbe(fx.repo).check('src/nowhere.ts')).toMatchObject({ citation_status: 'unverifiable', citation_note: expect.stringMatching(/^not_indexed: /) });
  });

  it('stats each distinct file once per request, shared by every part of it', async () => {
    fx = await settled(filesMentioning('src', 3, 'lantern'));
    const probe = citationProbe(fx.repo);
    gatedSearch(fx.repo, { query: 'lantern', probe });
    gatedLocate(fx.repo, { query: 'part1', probe });
    await read(fx.repo, { target: 'src/part2.ts', probe });
    packContext(fx.repo, { task: 'lantern part', probe });
    expect(probe.stats).toBe(3);
  });

  it(`past ${MAX_CONFIRMING_READS} confirming reads the rest are stale with modified_after_index, never passed`, async () => {
    fx = await settled(filesMentioning('src', 40, 'lantern'));
    for (let i = 0; i < 40; i++) touch(fx.root, `src/part${i}.ts`); // bytes unchanged: each needs a read to confirm
    const probe = citationProbe(fx.repo);
    const statuses = Array.from({ length: 40 }, (_, i) => probe.check(`src/part${i}.ts`));
    expect(probe.confirmingReads).toBe(MAX_CONFIRMING_READS);
    expect(statuses.filter((s) => s.citation_status === 'verified')).toHaveLength(MAX_CONFIRMING_READS);
    const rest = statuses.filter((s) => s.citation_status !== 'verified');
    expect(rest).toHaveLength(40 - MAX_CONFIRMING_READS);
    for (const s of rest) expect(s).toEqual({ citation_status: 'stale', citation_note: expect.stringMatching(/^modified_after_index: /) });
  });

  it('a bundle entry and a read carry the status too', async () => {
    fx = await settled(filesMentioning('src', 2, 'lantern'));
    fs.appendFileSync(path.join(fx.root, 'src/part0.ts'), '// grown\n');
    const bundle = packContext(fx.repo, { task: 'lantern', budgetTokens: 2000 });
    expect(bundle.entries.find((e) => e.path === 'src/part0.ts')).toMatchObject({ citation_status: 'stale' });
    expect(bundle.entries.find((e) => e.path === 'src/part1.ts')).toMatchObject({ citation_status: 'verified' });
    expect(await read(fx.repo, { target: 'src/part0.ts' })).toMatchObject({ citation_status: 'stale' });
  });

  it('works without an engine: the probe takes any lookup', () => {
    const probe = new CitationProbe({ root: '/nonexistent-root', lookup: () => ({ size: 1, indexedAtMs: 2, digest: 'x' }) });
    expect(probe.check('a.ts')).toMatchObject({ citation_status: 'unverifiable', citation_note: expect.stringMatching(/^missing: /) });
  });
});
