/**
 * The health view's live feed: opened on a repository with no index, the
 * dashboard starts the first pass when health is asked for, and its event
 * stream carries the pass as it runs (status, phase, files done of total)
 * until it completes (1,000 files, so the pass outlasts a few 500 ms polls
 * even on a fast machine). Plain HTTP; the browser test covers drawing it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDashboard, type Dashboard } from '../../bench/dashboard-browser.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';

interface JobEvent {
  status: string;
  phase: string | null;
  done: number;
  total: number;
  eta_seconds: number | null;
}

let root: string;
let home: string;
let dashboard: Dashboard;

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1000; i++) files[`pkg${i % 10}/mod${i}.ts`] = `export function step${i}(x: number): number {\n  return x + ${i};\n}\n`;
  root = makeRepo(files);
  home = tempDir('sightline-home-');
  dashboard = await startDashboard(['--repo', root, '--no-watch'], { SIGHTLINE_HOME: home });
});

afterAll(async () => {
  await dashboard?.stop();
  removeDir(root);
  removeDir(home);
});

async function* events(res: Response): AsyncGenerator<JobEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body!) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = /^event: job\ndata: (.*)$/m.exec(frame);
      if (data) yield JSON.parse(data[1]!) as JobEvent;
    }
  }
}

it('streams the first index pass as it runs, to completion', async () => {
  const auth = { authorization: `Bearer ${dashboard.token}` };
  const abort = new AbortController();
  const stream = await fetch(`${dashboard.url.origin}/api/events`, { headers: auth, signal: abort.signal });
  expect(stream.headers.get('content-type')).toBe('text/event-stream');
  const seen: JobEvent[] = [];
  const reading = (async () => {
    for await (const e of events(stream)) {
      seen.push(e);
      if (e.status === 'completed') break;
    }
  })();
  const health = await (await fetch(`${dashboard.url.origin}/api/health`, { headers: auth })).json();
  expect(['missing', 'building']).toContain(health.health.index); // asked before the pass wrote anything
  await reading;
  abort.abort();
  expect(seen[0]!.status).toBe('none');
  const running = seen.filter((e) => e.status === 'running');
  expect(running.length).toBeGreaterThan(0);
  expect(running.some((e) => e.phase !== null && e.total > 0)).toBe(true);
  for (const e of running) expect(e.done).toBeLessThanOrEqual(e.total);
  expect(seen.at(-1)).toMatchObject({ status: 'completed', phase: 'done' });
});
