/**
 * The live verbs as users run them: `status` from another process while a
 * pass runs, two `index` processes taking turns, `watch` end to end, and help
 * with examples on every verb.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { writeFiles } from '../helpers/fixture.js';
import { scratch, until, writeGenerated } from './helpers.js';

const tmp = scratch();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  tmp.cleanup();
});

function start(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

const status = (root: string, home: string) => JSON.parse(runCli(['status', '--repo', root, '--json'], { SIGHTLINE_HOME: home }).stdout).job;

describe('live verbs', () => {
  it('every verb has --help with examples and --json', () => {
    for (const verb of ['watch', 'status', 'doctor', 'reset']) {
      const r = runCli([verb, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Examples:\n\s+\$ sightline /);
      expect(r.stdout).toContain('--json');
    }
    expect(runCli(['serve', '--help']).stdout).toContain('--watch');
  });

  it('status in another process sees a running pass live, with its pid, phase and counts, then its end', async () => {
    const root = tmp.dir();
    writeGenerated(root, 1_500);
    const home = tmp.dir('sightline-home-');
    const indexer = start(['index', root], { SIGHTLINE_HOME: home });
    const running = await until('status to report the pass running', () => {
      const job = status(root, home);
      return job.status === 'running' && ['parsing', 'writing', 'embedding'].includes(job.phase) ? job : null;
    });
    expect(running.pid).toBe(indexer.child.pid);
    expect(running.attempts).toBe(1);
    expect(running.counts.scanned).toBe(1_500);
    expect(await indexer.exited).toBe(0);
    expect(status(root, home)).toMatchObject({ status: 'completed', phase: 'done', counts: expect.objectContaining({ added: 1_500 }) });
    expect(runCli(['status', '--repo', root], { SIGHTLINE_HOME: home }).stdout).toMatch(/^status\s+completed\n/);
  });

  it('two index processes at once take turns: one job per repository across processes', async () => {
    const root = tmp.dir();
    writeGenerated(root, 800);
    const home = tmp.dir('sightline-home-');
    const a = start(['index', root, '--json'], { SIGHTLINE_HOME: home });
    const b = start(['index', root, '--json'], { SIGHTLINE_HOME: home });
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
    const [sa, sb] = [JSON.parse(a.stdout()), JSON.parse(b.stdout())];
    // Had they overlapped, both would have added files; in turns, the second finds the first's work done.
    expect(sa.added + sb.added).toBe(800);
    expect(Math.min(sa.added, sb.added)).toBe(0);
    expect(status(root, home).attempts).toBe(2);
    // The one that waited said so, once, naming the other; the one that went first said nothing.
    const [first, second] = sa.added > 0 ? [a, b] : [b, a];
    expect(second.stderr().match(/waiting for another indexer/g)).toEqual(['waiting for another indexer']);
    expect(second.stderr()).toContain(`(pid ${first.child.pid} on `);
    expect(first.stderr()).not.toContain('waiting');
  });

  it('watch: a catch-up pass, then a pass per change; Ctrl-C stops it cleanly', async () => {
    const root = tmp.dir();
    writeGenerated(root, 20);
    const home = tmp.dir('sightline-home-');
    const w = start(['watch', root, '--debounce', '50', '--json'], { SIGHTLINE_HOME: home });
    const passes = () => w.stdout().trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    await until('the catch-up pass', () => passes().length === 1, 60_000);
    expect(passes()[0]).toMatchObject({ event: 'pass', ok: true, summary: { added: 20 } });
    expect(w.stderr()).toMatch(/watching .* \(debounce 50 ms, reconcile every ~600 s\)/);

    writeFiles(root, { 'pkg3/late.ts': 'export function arrivedWhileWatching() {}\n' });
    await until('a pass for the change', () => passes().some((p) => p.summary?.added === 1), 60_000);
    const found = JSON.parse(runCli(['search', 'arrivedWhileWatching', '--repo', root, '--json'], { SIGHTLINE_HOME: home }).stdout);
    expect(found.results[0].path).toBe('pkg3/late.ts');

    w.child.kill('SIGINT');
    expect(await w.exited).toBe(0);
    expect(status(root, home).status).toBe('completed');
  });
});
