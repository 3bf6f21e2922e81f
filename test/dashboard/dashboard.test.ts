/**
 * The dashboard in a real browser: Debian's Chromium (playwright-core, a fresh
 * profile) against `sightline dashboard` on a fixture repository. One browser
 * for the file; each test opens its own page. Screenshots of every view go
 * to $SIGHTLINE_SCREENSHOTS (docs/images to refresh the README's), else to a
 * temp folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startDashboard, type Browser, type Dashboard } from '../../bench/dashboard-browser.js';
import { runCli } from '../helpers/cli.js';
import { age, makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { DASHBOARD_FILES, MODULES, toolLog } from './fixture.js';

const WAIT = { timeout: 20_000 };
let root: string;
let home: string;
let shots: string;
let browser: Browser;
let server: Dashboard;
let stats: { files: number; chunks: number; symbols: number };
let claimKey: string;

const env = () => ({ SIGHTLINE_HOME: home });
const base = () => `${server.url.origin}/`;

async function signedIn(view = 'health'): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(server.url.href);
  await page.getByTestId('view-health').waitFor(WAIT);
  if (view !== 'health') {
    await page.evaluate((v) => (location.hash = v), view);
    await page.getByTestId(`view-${view}`).waitFor(WAIT);
  }
  return page;
}

const shoot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `dashboard-${name}.png`), fullPage: false });

beforeAll(async () => {
  root = makeRepo(DASHBOARD_FILES);
  for (const rel of Object.keys(DASHBOARD_FILES)) age(root, rel);
  home = tempDir('sightline-home-');
  shots = process.env.SIGHTLINE_SCREENSHOTS ? path.resolve(process.env.SIGHTLINE_SCREENSHOTS) : tempDir('sightline-shots-');
  fs.mkdirSync(shots, { recursive: true });
  expect(runCli(['index', '--repo', root], env()).code).toBe(0);
  stats = JSON.parse(runCli(['stats', '--repo', root, '--json'], env()).stdout);
  const remembered = JSON.parse(runCli(['remember', 'backlog', '--title', 'Rotate session tokens', '--enable-writes', '--repo', root, '--json'], env()).stdout);
  claimKey = remembered.key;
  expect(runCli(['claim', claimKey, '--owner', 'agent-7', '--lease', '1800', '--enable-writes', '--repo', root, '--json'], env()).code).toBe(0);
  const log = path.join(home, 'tools.ndjson');
  fs.writeFileSync(log, toolLog());
  server = await startDashboard(['--repo', root, '--no-watch', '--access-log', '--tool-log', log], env());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  removeDir(root);
  removeDir(home);
  if (!process.env.SIGHTLINE_SCREENSHOTS) removeDir(shots);
});

describe('sightline dashboard in Chromium', () => {
  it('signs in with the token from the URL, drops it from the address bar, and shows health', async () => {
    const page = await signedIn();
    expect(page.url()).not.toContain(server.token);
    expect(page.url()).toMatch(/#health$/);
    await expect.poll(() => page.getByTestId('health-files').textContent(), WAIT).toBe(String(stats.files));
    await expect.poll(() => page.getByTestId('job-status').textContent(), WAIT).toBe('completed');
    await expect.poll(() => page.getByTestId('doctor').textContent(), WAIT).toContain('integrity');
    expect(await page.getByTestId('doctor').locator('.badge-failed').count()).toBe(0);
    await expect.poll(() => page.getByTestId('staleness').textContent(), WAIT).toContain('Every indexed file matches the disk');
    // The session is an HttpOnly, SameSite=Strict cookie: the page's script cannot read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const [cookie] = await browser.context.cookies(base());
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    // Neither the token nor the cookie reaches the access log; the fragment never leaves the browser.
    expect(server.stderr()).toMatch(/"POST \/api\/session HTTP\/1\.1" 200/);
    expect(server.stderr()).not.toContain(server.token);
    expect(server.stderr()).not.toContain(cookie!.value);
    await shoot(page, 'health');
    await page.close();
  });

  it('moves between views from the keyboard', async () => {
    const page = await signedIn();
    await page.getByRole('tab', { name: 'Health' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.getByTestId('view-contents').waitFor(WAIT);
    expect(await page.evaluate(() => location.hash)).toBe('#contents');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Contents');
    await page.close();
  });

  it('shows the index counts by language and directory, and what was skipped', async () => {
    const page = await signedIn('contents');
    await expect.poll(() => page.getByTestId('total-files').textContent(), WAIT).toBe(String(stats.files));
    expect(await page.getByTestId('total-chunks').textContent()).toBe(String(stats.chunks));
    expect(await page.getByTestId('total-symbols').textContent()).toBe(String(stats.symbols));
    const typescript = page.getByTestId('by-language').locator('tr', { hasText: 'typescript' });
    expect(await typescript.locator('td').nth(1).textContent()).toBe('5');
    const src = page.getByTestId('by-directory').locator('tr', { hasText: /^src/ });
    expect(await src.locator('td').nth(1).textContent()).toBe('4');
    await expect.poll(() => page.getByTestId('skipped').textContent(), WAIT).toContain('binary');
    expect(await page.locator('.chart canvas').count()).toBeGreaterThanOrEqual(2);
    await shoot(page, 'contents');
    await page.close();
  });

  it('draws a node per module, and a click lists its most depended-on files and their callers', async () => {
    const page = await signedIn('graph');
    const nodes = async () => ((await page.getByTestId('graph').getAttribute('data-nodes')) ?? '').split(' ').sort();
    await expect.poll(nodes, WAIT).toEqual(MODULES);
    const canvas = await page.getByTestId('graph').locator('canvas').first().boundingBox();
    expect(canvas!.width).toBeGreaterThan(300);
    await shoot(page, 'graph');
    await page.getByTestId('module-list').getByRole('button', { name: 'src/util' }).click();
    const file = page.getByTestId('module-file').first();
    await file.waitFor(WAIT);
    expect(await file.textContent()).toContain('src/util/crypto.ts');
    expect(await file.textContent()).toContain('src/auth/session.ts'); // its caller
    await file.getByRole('button', { name: 'src/util/crypto.ts' }).first().click();
    await expect.poll(() => page.getByTestId('outline').textContent(), WAIT).toContain('hashToken');
    await shoot(page, 'file');
    await page.close();
  });

  it('searches as the agent sees it, and an edit on disk turns the result stale on refresh', async () => {
    const page = await signedIn('search');
    await page.getByRole('searchbox', { name: 'query' }).fill('hashToken');
    await page.keyboard.press('Enter');
    const first = page.getByTestId('result').first();
    await first.waitFor(WAIT);
    expect(await first.getByTestId('result-path').textContent()).toMatch(/^src\/util\/crypto\.ts:1–4$/);
    expect(await first.getByTestId('reasons').textContent()).toContain('symbol:hashToken');
    expect(await first.getByTestId('citation').textContent()).toBe('verified');
    await shoot(page, 'search');
    fs.appendFileSync(path.join(root, 'src/util/crypto.ts'), '\nexport const SALT = "pepper";\n');
    await page.getByTestId('refresh').click();
    await expect.poll(() => page.getByTestId('result').first().getByTestId('citation').textContent(), WAIT).toBe('stale');
    // Health's staleness names the edited file, and the file that depends on it.
    await page.evaluate(() => (location.hash = 'health'));
    await expect.poll(() => page.getByTestId('staleness').textContent(), WAIT).toBe('1 file changed on disk since indexing; 1 indexed file depends on it.');
    expect(await page.getByTestId('view-health').textContent()).toContain('src/util/crypto.ts');
    await page.close();
  });

  it('charts the tool log, and lists memory claims with their holders', async () => {
    const page = await signedIn('usage');
    await expect.poll(() => page.getByTestId('log-calls').textContent(), WAIT).toBe('4');
    expect(await page.getByTestId('slowest').locator('tbody tr').first().textContent()).toContain('context');
    await expect.poll(() => page.getByTestId('claims').textContent(), WAIT).toContain('agent-7');
    expect(await page.getByTestId('claims').textContent()).toContain(claimKey);
    expect(await page.getByTestId('topics').textContent()).toContain('backlog');
    await page.waitForTimeout(300); // the charts draw on the next frame
    await shoot(page, 'usage');
    await page.close();
  });

  it('stays readable on a narrow window', async () => {
    const page = await signedIn();
    await page.setViewportSize({ width: 400, height: 860 });
    await expect.poll(() => page.getByTestId('health-files').textContent(), WAIT).toBe(String(stats.files));
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shoot(page, 'narrow');
    await page.close();
  });

  it('refuses a missing or wrong token, and a foreign Origin', async () => {
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    await page.goto(base());
    await page.getByTestId('signed-out').waitFor(WAIT);
    await page.goto(`${base()}#token=${server.token.slice(0, -2)}xx`); // only the fragment changes: the page signs in with it
    await expect.poll(() => page.getByTestId('signed-out').textContent(), WAIT).toContain("not this server's");
    await page.close();
    const api = (pathname: string, headers: Record<string, string>, init: RequestInit = {}) => fetch(new URL(pathname, base()), { ...init, headers });
    expect((await api('/api/health', {})).status).toBe(401);
    expect((await api('/api/health', { cookie: 'sightline_x=forged' })).status).toBe(401);
    expect((await api('/api/session', { 'content-type': 'application/json' }, { method: 'POST', body: JSON.stringify({ token: 'wrong' }) })).status).toBe(401);
    // A foreign site is refused before anything else; so is a page on another local port, which is same-site for cookies.
    expect((await api('/', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await api('/api/health', { origin: 'http://evil.example', authorization: `Bearer ${server.token}` })).status).toBe(403);
    expect((await api('/api/health', { origin: 'http://127.0.0.1:1', authorization: `Bearer ${server.token}` })).status).toBe(403);
    expect((await api('/api/health', { authorization: `Bearer ${server.token}` })).status).toBe(200);
  });
});
