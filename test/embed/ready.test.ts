/**
 * A query waits (bounded) for an http query embedder to start, so the CLI's
 * first search is hybrid and reports the true phase instead of answering by
 * keyword and calling itself `building` while every vector is in place.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { spawnCli } from '../mcp/harness.js';
import { startFakeEmbeddings, type FakeEmbeddings } from './fixtures/fake-embeddings.mjs';

let fake: FakeEmbeddings | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await fake?.close();
  fake = null;
  dirs.splice(0).forEach(removeDir);
});

/** The CLI as a child that does not block this process, which serves its embeddings. */
async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args, env);
  const { code } = await child.exited;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}

describe('query embedder readiness', () => {
  it('a CLI search with the http embedder waits for it and answers hybrid, serving', async () => {
    fake = await startFakeEmbeddings({ dims: 16 });
    const root = makeRepo({
      'src/retry.ts': 'export function retryWithBackoff(attempts: number) {\n  return attempts * 2;\n}\n',
      'src/parse.ts': 'export function parseHeader(line: string) {\n  return line.split(":");\n}\n',
    });
    const home = tempDir('sightline-home-');
    dirs.push(root, home);
    const env = { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'http', SIGHTLINE_EMBED_URL: fake.url, SIGHTLINE_EMBED_MODEL: 'fake-embed' };
    const indexed = await cli(['index', root, '--json'], env);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(JSON.parse(indexed.stdout).embed).toMatchObject({ pending: 0 });
    const found = await cli(['search', 'retry backoff', '--repo', root, '--json'], env);
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout)).toMatchObject({ status: 'ok', mode: 'hybrid', retrieval_phase: 'serving' });
  });
});
