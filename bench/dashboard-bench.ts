/**
 * npm run bench:dashboard -- <repo> [--reps <n>] [--query <text>] [--screenshots <dir>]
 * The dashboard's page weight (dist/web: what the first view loads, what the
 * graph view fetches later, raw and gzip) and how long each view takes to
 * first show its data in Debian's Chromium, against `sightline dashboard` on
 * an indexed repository (SIGHTLINE_HOME says where its index is; index it
 * first, the benchmark does not). Each view is timed from navigation to the
 * element that carries its numbers; the first round is cold (a fresh server
 * and browser), the rest warm. Prints tables; asserts nothing. With
 * --screenshots, the last round's views are saved there (dashboard-<view>-<repo>.png).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchChromium, startDashboard } from './dashboard-browser.js';
import { median, table, usage } from './util.js';

const WEB = path.resolve(import.meta.dirname, '../web');

function args(): { repo: string; reps: number; query: string; screenshots?: string } {
  const argv = process.argv.slice(2);
  const take = (name: string) => {
    const i = argv.indexOf(name);
    return i === -1 ? undefined : argv.splice(i, 2)[1];
  };
  const reps = Number(take('--reps') ?? 5);
  const query = take('--query') ?? 'parse config file';
  const screenshots = take('--screenshots');
  if (!argv[0] || !Number.isInteger(reps) || reps < 1) usage('usage: npm run bench:dashboard -- <indexed repo> [--reps <n>] [--query <text>]');
  return { repo: path.resolve(argv[0]), reps, query, screenshots: screenshots && path.resolve(screenshots) };
}

function weight(): (string | number)[][] {
  const files = fs.readdirSync(WEB, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  const rows = files.map((e) => {
    const bytes = fs.readFileSync(path.join(e.parentPath, e.name));
    const rel = path.relative(WEB, path.join(e.parentPath, e.name));
    return { rel, raw: bytes.length, gz: zlib.gzipSync(bytes, { level: 9 }).length, lazy: rel.includes('cytoscape') };
  });
  const sum = (list: typeof rows) => [list.reduce((s, r) => s + r.raw, 0) / 1024, list.reduce((s, r) => s + r.gz, 0) / 1024];
  return [
    ...rows.map((r) => [r.rel, r.lazy ? 'graph view' : 'first view', r.raw / 1024, r.gz / 1024]),
    ['total, first view', '', ...sum(rows.filter((r) => !r.lazy))],
    ['total, all views', '', ...sum(rows)],
  ];
}

/**
 * Each view, the element whose text says its first data has arrived, and the
 * one that says its slower parts have too: the next view waits for those, so
 * it is not timed behind requests the last one left running on the server.
 */
const VIEWS: { view: string; ready: string; settled: string }[] = [
  { view: 'health', ready: '[data-testid=health-files]:not(:empty)', settled: '[data-testid=doctor] >> nth=0, [data-testid=staleness]' },
  { view: 'contents', ready: '[data-testid=total-files]', settled: '[data-testid=skipped]' },
  { view: 'graph', ready: '[data-testid=graph][data-nodes]', settled: '[data-testid=graph][data-nodes]' },
  { view: 'usage', ready: '[data-testid=log-calls]', settled: '[data-testid=claims]' },
];

async function main(): Promise<void> {
  const { repo, reps, query, screenshots } = args();
  const shoot = async (page: Page, round: number, view: string) => {
    if (!screenshots || round !== reps - 1) return;
    fs.mkdirSync(screenshots, { recursive: true });
    await page.waitForTimeout(500); // charts and the graph's layout draw on the next frames
    await page.screenshot({ path: path.join(screenshots, `dashboard-${view}-${path.basename(repo)}.png`) });
  };
  process.stdout.write(`Page weight (KB), dist/web:\n${table(['file', 'loaded by', 'raw KB', 'gzip KB'], weight())}\n\n`);
  const server = await startDashboard(['--repo', repo, '--no-watch'], process.env);
  const browser = await launchChromium();
  const times = new Map<string, number[]>();
  const record = (view: string, ms: number) => times.set(view, [...(times.get(view) ?? []), ms]);
  try {
    for (let round = 0; round < reps; round++) {
      for (const { view, ready, settled } of VIEWS) {
        const page = await browser.context.newPage();
        const t0 = performance.now();
        // Every round signs in again from the printed URL, as a person opening it does.
        await page.goto(round === 0 && view === 'health' ? server.url.href : `${server.url.origin}/#${view}`);
        await page.waitForSelector(ready, { timeout: 120_000 });
        record(view, performance.now() - t0);
        for (const selector of settled.split(', ')) await page.waitForSelector(selector, { timeout: 120_000 });
        await shoot(page, round, view);
        await page.close();
      }
      const page = await browser.context.newPage();
      await page.goto(`${server.url.origin}/#search`);
      await page.getByRole('searchbox', { name: 'query' }).fill(query);
      const t0 = performance.now();
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid=result], [data-testid=refine-note]', { timeout: 120_000 });
      record('search (submit to results)', performance.now() - t0);
      await shoot(page, round, 'search');
      await page.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const rows = [...times.entries()].map(([view, ms]) => [view, ms[0]!, reps > 1 ? median(ms.slice(1)) : NaN]);
  process.stdout.write(`Time to first render with data (ms), ${repo}:\n${table(['view', 'cold (first)', `warm (median of ${reps - 1})`], rows)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
