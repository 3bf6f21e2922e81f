/**
 * The dashboard over a workspace, in Chromium: `sightline dashboard
 * --workspace` on two registered repositories (the dashboard fixture, and
 * one broad enough that a common word makes the gate answer `refine`). The
 * picker lists both and each view follows the pick; the refine envelope is
 * shown with its distribution and suggestions, and a suggestion runs the
 * narrowed search. Under `serve --workspace --tokens`, a caller granted one
 * repository sees that one only; an empty workspace says nothing_registered,
 * and a repository whose code index was reset says what indexes it again.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startDashboard, type Browser, type Dashboard } from '../../bench/dashboard-browser.js';
import { filesMentioning, KEYWORD_ONLY } from '../budget/helpers.js';
import { runCli } from '../helpers/cli.js';
import { removeDir, tempDir, writeFiles } from '../helpers/fixture.js';
import { startNetworkServer, stop, type NetworkServer } from '../mcp/harness.js';
import { DASHBOARD_FILES } from './fixture.js';

const WAIT = { timeout: 20_000 };
/** 30 files mention "widget": over the gate's 25 files, so a search for it is too broad. */
const WIDGETS = { ...filesMentioning('lib/alpha', 20, 'widget'), ...filesMentioning('lib/beta', 10, 'widget') };
const TOKENS = { owner: 'owner-token-0123456789abcdef', narrow: 'narrow-token-0123456789abcdef' };

let workspace: string;
let home: string;
let shots: string;
let browser: Browser;
let dashboard: Dashboard;
const stats: Record<string, { files: number; chunks: number; symbols: number }> = {};

const env = () => ({ SIGHTLINE_HOME: home, ...KEYWORD_ONLY });

beforeAll(async () => {
  workspace = tempDir('sightline-workspace-');
  home = tempDir('sightline-home-');
  shots = process.env.SIGHTLINE_SCREENSHOTS ? path.resolve(process.env.SIGHTLINE_SCREENSHOTS) : tempDir('sightline-shots-');
  fs.mkdirSync(shots, { recursive: true });
  writeFiles(path.join(workspace, 'shop'), DASHBOARD_FILES);
  writeFiles(path.join(workspace, 'widgets'), WIDGETS);
  for (const id of ['shop', 'widgets']) {
    const added = runCli(['workspace', 'add', id, '--workspace', workspace, '--json'], env());
    expect(added.code, added.stderr).toBe(0);
    stats[id] = JSON.parse(runCli(['stats', '--repo', path.join(workspace, id), '--json'], env()).stdout);
  }
  expect(stats.shop!.files).not.toBe(stats.widgets!.files);
  dashboard = await startDashboard(['--workspace', workspace, '--no-watch', '--json'], env());
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await dashboard?.stop();
  removeDir(workspace);
  removeDir(home);
  if (!process.env.SIGHTLINE_SCREENSHOTS) removeDir(shots);
});

async function open(url: string, view = 'contents'): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(url);
  await page.getByTestId('view-health').waitFor(WAIT);
  await page.evaluate((v) => (location.hash = v), view);
  await page.getByTestId(`view-${view}`).waitFor(WAIT);
  return page;
}

const options = (page: Page) => page.getByTestId('repo-picker').locator('option').allTextContents();

/** The search view on the widgets repository, after a search for `query` the gate refused. */
async function refusedSearch(query: string): Promise<Page> {
  const page = await open(dashboard.url.href, 'search');
  await page.getByTestId('repo-picker').selectOption('widgets');
  await page.getByTestId('view-search').waitFor(WAIT);
  await page.getByRole('searchbox', { name: 'query' }).fill(query);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('answer-status').textContent(), WAIT).toContain('refine');
  return page;
}

describe('sightline dashboard --workspace', () => {
  it('prints its URL and the workspace, and lists both repositories in the picker', async () => {
    expect(JSON.parse(dashboard.stdout())).toEqual({ status: 'ok', url: dashboard.url.href, workspace });
    const page = await open(dashboard.url.href);
    expect(await options(page)).toEqual(['shop', 'widgets']);
    await page.close();
  });

  it('scopes every view to the repository picked: the counts are each one\'s stats', async () => {
    const page = await open(dashboard.url.href);
    for (const id of ['shop', 'widgets', 'shop']) {
      await page.getByTestId('repo-picker').selectOption(id);
      expect(await page.getByTestId('repo-root').textContent()).toBe(path.join(workspace, id));
      await expect.poll(() => page.getByTestId('total-files').textContent(), WAIT).toBe(String(stats[id]!.files));
      expect(await page.getByTestId('total-chunks').textContent()).toBe(String(stats[id]!.chunks));
      expect(await page.getByTestId('total-symbols').textContent()).toBe(String(stats[id]!.symbols));
    }
    // The pick holds across views and a reload of the tab.
    await page.getByTestId('repo-picker').selectOption('widgets');
    await page.evaluate(() => (location.hash = 'health'));
    await expect.poll(() => page.getByTestId('health-files').textContent(), WAIT).toBe(String(stats.widgets!.files));
    await expect.poll(() => page.getByTestId('job-status').textContent(), WAIT).toBe('completed'); // its event stream: /api/events?repo=widgets
    await page.reload();
    await expect.poll(() => page.getByTestId('health-files').textContent(), WAIT).toBe(String(stats.widgets!.files));
    expect(await page.getByTestId('repo-picker').inputValue()).toBe('widgets');
    await page.screenshot({ path: path.join(shots, 'dashboard-picker.png') });
    await page.close();
  });

  it('shows the refine envelope, and a suggestion runs the narrowed search', async () => {
    const page = await refusedSearch('widget');
    const rows = async (testid: string) => (await page.getByTestId(testid).locator('tbody tr').allTextContents()).map((r) => r.trim());
    expect(await rows('distribution')).toEqual(['lib/alpha2020', 'lib/beta1010']);
    const scope = page.getByTestId('suggestions').locator('tbody tr', { hasText: 'pass scope: "lib/alpha"' });
    expect(await scope.locator('td').nth(2).textContent()).toBe('20');
    await page.screenshot({ path: path.join(shots, 'dashboard-refine.png') });
    await scope.getByRole('button', { name: 'Run' }).click();
    await expect.poll(() => page.getByTestId('answer-status').textContent(), WAIT).toMatch(/^ok.* 20 matches/);
    const paths = await page.getByTestId('result-path').allTextContents();
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) expect(p).toMatch(/^lib\/alpha\//);
    await page.close();
  });

  it('offers a question no match covers enough of without the word nothing holds, and runs it', async () => {
    const page = await refusedSearch('widget zorblax');
    const drop = page.getByTestId('suggestions').locator('tbody tr', { hasText: 'ask "widget" instead (no indexed file holds "zorblax")' });
    await drop.getByRole('button', { name: 'Run' }).click();
    // The question without "zorblax" is "widget": too broad in its turn, refused with where its 30 hits are.
    await expect.poll(async () => (await page.getByTestId('distribution').locator('tbody tr').allTextContents()).map((r) => r.trim()), WAIT).toEqual(['lib/alpha2020', 'lib/beta1010']);
    await page.close();
  });

  it('answers 404 for a repository the workspace does not have', async () => {
    const res = await fetch(new URL('/api/contents?repo=nope', dashboard.url.origin), { headers: { authorization: `Bearer ${dashboard.token}` } });
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatch(/no repository "nope" in this workspace; its repositories: shop, widgets/);
  });
});

describe('a workspace server under a tokens file', () => {
  let server: NetworkServer;
  beforeAll(async () => {
    const file = path.join(home, 'tokens.json');
    const callers = [{ name: 'owner', token: TOKENS.owner, grants: { '*': 'read' } }, { name: 'narrow', token: TOKENS.narrow, grants: { widgets: 'read' } }];
    fs.writeFileSync(file, JSON.stringify({ callers }), { mode: 0o600 });
    server = await startNetworkServer('http', ['--workspace', workspace, '--no-watch', '--tokens', file], env());
  });
  afterAll(async () => {
    if (server) await stop(server);
  });

  it('shows a caller only the repositories it is granted', async () => {
    expect(server.stderr()).toContain(`Open the dashboard at ${server.url.origin}/#token= followed by your caller's token from the tokens file`);
    const page = await browser.context.newPage();
    await page.goto(`${server.url.origin}/#token=${TOKENS.narrow}`);
    await page.getByTestId('view-health').waitFor(WAIT);
    expect(await options(page)).toEqual(['widgets']);
    await expect.poll(() => page.getByTestId('health-files').textContent(), WAIT).toBe(String(stats.widgets!.files));
    await page.close();
    const api = (pathname: string, token: string) => fetch(new URL(pathname, server.url.origin), { headers: { authorization: `Bearer ${token}` } });
    expect((await (await api('/api/repositories', TOKENS.owner)).json()).repositories.map((r: { id: string }) => r.id)).toEqual(['shop', 'widgets']);
    expect((await (await api('/api/repositories', TOKENS.narrow)).json()).repositories.map((r: { id: string }) => r.id)).toEqual(['widgets']);
    // The other repository does not exist for it: the same 404 as an unknown id.
    const hidden = await api('/api/contents?repo=shop', TOKENS.narrow);
    expect(hidden.status).toBe(404);
    expect((await hidden.json()).error).toBe('no repository "shop" in this workspace; its repositories: widgets');
    expect((await api('/api/contents?repo=shop', TOKENS.owner)).status).toBe(200);
  });
});

describe('a workspace with nothing to show', () => {
  it('says nothing is registered, and how to add a repository', async () => {
    const empty = tempDir('sightline-workspace-');
    const server = await startDashboard(['--workspace', empty, '--no-watch'], env());
    try {
      const page = await browser.context.newPage();
      await page.goto(server.url.href);
      await expect.poll(() => page.getByTestId('nothing-registered').textContent(), WAIT).toContain('sightline workspace add');
      expect(await page.getByRole('tab').count()).toBe(0);
      await page.close();
      const listed = await (await fetch(new URL('/api/repositories', server.url.origin), { headers: { authorization: `Bearer ${server.token}` } })).json();
      expect(listed).toMatchObject({ workspace: empty, repositories: [], retrieval_phase: 'nothing_registered' });
    } finally {
      await server.stop();
      removeDir(empty);
    }
  });

  it('answers a repository whose code index was reset with what indexes it again, and does not index it itself', async () => {
    const root = tempDir('sightline-workspace-');
    writeFiles(path.join(root, 'kept'), { 'a.ts': 'export const a = 1;\n' });
    for (const verb of [['add', 'kept'], ['reset', 'kept']]) expect(runCli(['workspace', ...verb, '--workspace', root], env()).code).toBe(0);
    const server = await startDashboard(['--workspace', root, '--no-watch'], env());
    try {
      const ask = (pathname: string) => fetch(new URL(pathname, server.url.origin), { headers: { authorization: `Bearer ${server.token}` } });
      const listed = await (await ask('/api/repositories')).json();
      expect(listed.repositories).toMatchObject([{ id: 'kept', root: null }]);
      const health = await ask('/api/health?repo=kept');
      expect(health.status).toBe(400);
      expect((await health.json()).error).toMatch(/the code index of kept was reset; add_repo \(or `sightline workspace add`\) indexes it again/);
      expect((await (await ask('/api/repositories')).json()).repositories[0].job).toBe('none');
    } finally {
      await server.stop();
      removeDir(root);
    }
  });
});
