import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/index.js';
import { embedderSpec } from '../../src/embed/index.js';
import { queryEmbedderReady } from '../../src/embed/query.js';
import { Repo } from '../../src/engine/index.js';
import { search } from '../../src/engine/search.js';
import { feedbackNearness, fusionFor } from '../../src/search/hybrid.js';
import { candidateFiles } from '../../src/search/rank.js';
import { ask } from '../../src/search/query.js';
import { indexedRepo, makeRepo, removeDir, SAMPLE_FILES, tempDir, writeFiles } from '../helpers/fixture.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function indexed(flags: Partial<Config> = {}): Promise<Repo> {
  const fixture = await indexedRepo({ flags });
  cleanup.push(fixture.cleanup);
  return fixture.repo;
}

const semanticReason = (reasons: string[]) => reasons.some((r) => /^semantic:-?\d\.\d{3}$/.test(r));

describe('hybrid search', () => {
  it('fuses vector hits into the keyword ranking and says so', async () => {
    const repo = await indexed();
    const answer = search(repo, { query: 'serve requests over a socket' });
    expect(answer).toMatchObject({ mode: 'hybrid', retrieval_phase: 'serving' });
    expect(answer.results.some((r) => semanticReason(r.reasons))).toBe(true);
    expect(answer.results.every((r) => r.score > 0 && r.score <= 1)).toBe(true);
    const files = search(repo, { query: 'serve requests over a socket', files: true });
    expect(files.mode).toBe('hybrid');
    expect(new Set(files.results.map((r) => r.path)).size).toBe(files.results.length);
  });

  it('lets a query that names code rank by those names: the vectors only nudge it; prose keeps their weight', async () => {
    const repo = await indexed({ fusionSemanticWeight: 0.5 });
    const named = 'SessionManager.getUserName returns undefined after hashToken changed';
    expect(fusionFor(repo.config, 'hybrid', ask(named))).toMatchObject({ keywordWeight: 1, semanticWeight: 0.05 });
    expect(fusionFor(repo.config, 'hybrid', ask('serve requests over a socket'))).toMatchObject({ keywordWeight: 1, semanticWeight: 0.5 });
    expect(fusionFor(repo.config, 'semantic', ask(named))).toMatchObject({ keywordWeight: 0, semanticWeight: 0.5 });
    const paths = (mode: 'keyword' | 'hybrid') => search(repo, { query: named, files: true, mode, force: true }).results.map((r) => r.path);
    const keyword = paths('keyword');
    expect(paths('hybrid').slice(0, keyword.length)).toEqual(keyword);
  });

  it('ranks files by their evidence and their nearness: nearness re-ranks the files the words found, never adds one', async () => {
    const repo = await indexed();
    const query = 'hash a token for the session';
    const candidates = candidateFiles(repo.store, ask(query), {}, feedbackNearness(repo.store, repo.config, ask(query))!);
    const scores = candidates.map((c) => c.semantic).sort((a, b) => b - a);
    // By rank among the candidates: 1, then 1/(1 + rank/5).
    scores.forEach((s, rank) => expect(s).toBeCloseTo(1 / (1 + rank / 5), 9));
    const hybrid = search(repo, { query, files: true, k: 50, force: true });
    const keyword = search(repo, { query, files: true, k: 50, force: true, mode: 'keyword' });
    expect(hybrid.mode).toBe('hybrid');
    expect(new Set(hybrid.results.map((r) => r.path))).toEqual(new Set(keyword.results.map((r) => r.path)));
    expect(hybrid.results.every((r) => semanticReason(r.reasons))).toBe(true);
    // With its weight at 0 the nearness changes nothing.
    const off = await indexed({ nearnessWeight: 0 });
    expect(search(off, { query, files: true, k: 50, force: true }).results.map((r) => r.path)).toEqual(keyword.results.map((r) => r.path));
  });

  it('moves the question towards the best keyword files: the file that reads like them is nearer than one that does not', async () => {
    const root = makeRepo({
      'src/time/zone.ts': 'export function zoneOffset(date: Date, timezone: string) {\n  // daylight saving shifts the timezone offset by an hour\n  return timezoneOffsetMinutes(date, timezone) * 60_000;\n}\n',
      'src/time/dst.ts': 'export function daylightSavingStart(year: number, timezone: string) {\n  return transitionsOf(timezone).find((t) => t.year === year && t.shiftMinutes === 60);\n}\n// helper\n',
      'src/ui/button.ts': 'export function renderButton(label: string, onClick: () => void) {\n  return `<button class="primary">${label}</button>`;\n}\n// helper\n',
      // Files without the query's words, so "helper" is in fewer than half the chunks: a word in half or more has no idf and is not searched.
      'src/ui/list.ts': 'export function renderList(items: string[]) {\n  return items.map((i) => `<li>${i}</li>`).join("");\n}\n',
      'src/ui/form.ts': 'export function renderForm(fields: string[]) {\n  return `<form>${fields.join("")}</form>`;\n}\n',
    });
    const home = tempDir();
    const repo = Repo.open(root, { flags: { home }, env: {} });
    cleanup.push(() => removeDir(root), () => removeDir(home), () => repo.close());
    await repo.index();
    const query = 'zone offset helper';
    const near = (path: string) => candidateFiles(repo.store, ask(query), {}, feedbackNearness(repo.store, repo.config, ask(query))!).find((c) => c.path === path)!;
    // Both hold "helper" once and no other query word: about the same keyword content (BM25 differs by their lengths).
    expect(near('src/time/dst.ts').content).toBeCloseTo(near('src/ui/button.ts').content, 0);
    expect(near('src/time/dst.ts').semantic).toBeGreaterThan(near('src/ui/button.ts').semantic);
  });

  it('answers keyword-only or semantic-only when asked', async () => {
    const repo = await indexed();
    const keyword = search(repo, { query: 'session token', mode: 'keyword' });
    expect(keyword.mode).toBe('keyword');
    expect(keyword.results.some((r) => semanticReason(r.reasons))).toBe(false);
    const semantic = search(repo, { query: 'session token', mode: 'semantic' });
    expect(semantic.mode).toBe('semantic');
    expect(semantic.results.length).toBeGreaterThan(0);
    expect(semantic.results.every((r) => r.reasons.length === 1 && semanticReason(r.reasons))).toBe(true);
    // By file: each file once, ranked by its most similar chunk, which it shows, text and all.
    const nearest = search(repo, { query: 'session token', mode: 'semantic', k: 50, force: true }).results;
    const files = search(repo, { query: 'session token', mode: 'semantic', files: true, k: 50, force: true }).results;
    const seen = new Set<string>();
    const firstOf = nearest.filter((r) => !seen.has(r.path) && !!seen.add(r.path));
    expect(files.length).toBeGreaterThan(1);
    expect(files.map((r) => [r.path, r.start_line, r.snippet])).toEqual(firstOf.slice(0, files.length).map((r) => [r.path, r.start_line, r.snippet]));
  });

  it('is keyword_only with no embedder', async () => {
    const repo = await indexed({ embedder: 'none' });
    expect(search(repo, { query: 'session token' })).toMatchObject({ mode: 'keyword', retrieval_phase: 'keyword_only' });
  });

  it('serves a repeated question from the cache until the index changes', async () => {
    const repo = await indexed();
    const first = search(repo, { query: 'hash a token' });
    expect(search(repo, { query: '  Hash a TOKEN ' })).toBe(first);
    expect(search(repo, { query: 'hash a token', k: 3 })).not.toBe(first);
    writeFiles(repo.root, { 'src/util/crypto.ts': SAMPLE_FILES['src/util/crypto.ts'] + '\nexport const TOKEN_BYTES = 32;\n' });
    await repo.index();
    expect(search(repo, { query: 'hash a token' })).not.toBe(first);
  });
});

describe('hybrid search with an http embedder', () => {
  it('embeds the query on its thread and blocks only the search that asks', async () => {
    // The server runs in another process: the search blocks this thread while the query is embedded.
    const server: ChildProcess = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/fake-embeddings.mjs', import.meta.url)), '8'], { stdio: ['pipe', 'pipe', 'inherit'] });
    cleanup.push(() => server.kill());
    const [line] = (await once(server.stdout!, 'data')) as [Buffer];
    const url = line.toString().trim();
    const repo = await indexed({ embedder: 'http', embedUrl: url, embedModel: 'fake-embed', embedDimensions: 8 });
    expect(await queryEmbedderReady(embedderSpec(repo.config))).not.toBeNull();
    const answer = search(repo, { query: 'session token' });
    expect(answer).toMatchObject({ mode: 'hybrid', retrieval_phase: 'serving' });
    expect(answer.results.some((r) => semanticReason(r.reasons))).toBe(true);
  });
});
