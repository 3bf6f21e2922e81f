/**
 * How a dashboard sign-in ends. The session table on its own, on a real
 * node:http server and an injected clock: an idle expiry, an absolute
 * lifetime, sign-out. Then in Chromium against `sightline dashboard` with a
 * lifetime of a few seconds: the Sign out button ends the session on the
 * server too, and a session that expired makes the page say so and how to
 * sign in again.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startDashboard, type Browser, type Dashboard } from '../../bench/dashboard-browser.js';
import { Sessions } from '../../src/web/session.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { DASHBOARD_FILES } from './fixture.js';

const WAIT = { timeout: 20_000 };

describe('the session table', () => {
  let now = 0;
  const sessions = new Sessions<string>({ idleMs: 1_000, maxMs: 5_000 }, () => now);
  let server: http.Server;
  let origin: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/open') sessions.open(res, 'alice');
      else if (req.url === '/end') sessions.end(req, res);
      else return res.end(JSON.stringify(sessions.of(req)));
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const open = async () => {
    const res = await fetch(`${origin}/open`);
    return { cookie: res.headers.get('set-cookie')!.split(';')[0]! };
  };
  const who = async (cookie: string, at: number) => {
    now = at;
    return (await fetch(`${origin}/who`, { headers: { cookie } })).json();
  };

  it('ends a session left unused for idleMs; each use restarts the idle clock', async () => {
    now = 0;
    const { cookie } = await open();
    expect(await who(cookie, 999)).toMatchObject({ caller: 'alice' });
    expect(await who(cookie, 1_998)).toMatchObject({ caller: 'alice' });
    expect(await who(cookie, 2_998)).toBe('expired');
    expect(await who(cookie, 2_999)).toBeNull(); // forgotten: the cookie is worth nothing now
  });

  it('ends a session maxMs after it began, however often it is used', async () => {
    now = 10_000;
    const { cookie } = await open();
    for (let t = 10_900; t < 15_000; t += 900) expect(await who(cookie, t)).toMatchObject({ caller: 'alice' });
    expect(await who(cookie, 15_000)).toBe('expired');
  });

  it('signs out: the session is forgotten and the cookie cleared', async () => {
    now = 20_000;
    const { cookie } = await open();
    const other = await open();
    const end = await fetch(`${origin}/end`, { headers: { cookie } });
    expect(end.headers.get('set-cookie')).toBe(`${sessions.cookie}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`);
    expect(await who(cookie, 20_001)).toBeNull();
    expect(await who(other.cookie, 20_001)).toMatchObject({ caller: 'alice' }); // only that one
    expect(await who(`${sessions.cookie}=forged`, 20_001)).toBeNull();
  });
});

describe('sign-out and expiry in Chromium', () => {
  /** Short enough to wait out in a test, long enough for the first view to load on a loaded machine. */
  const LIFETIME_MS = 4_000;
  let root: string;
  let home: string;
  let browser: Browser;
  let server: Dashboard;

  beforeAll(async () => {
    root = makeRepo(DASHBOARD_FILES);
    home = tempDir('sightline-home-');
    const env = { SIGHTLINE_HOME: home, SIGHTLINE_DASHBOARD_SESSION_MAX_MS: String(LIFETIME_MS) };
    expect(runCli(['index', '--repo', root], env).code).toBe(0);
    server = await startDashboard(['--repo', root, '--no-watch'], env);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    removeDir(root);
    removeDir(home);
  });

  const cookieHeader = async () => {
    const [cookie] = await browser.context.cookies(server.url.origin);
    return `${cookie!.name}=${cookie!.value}`;
  };
  const listed = (cookie: string) => fetch(new URL('/api/repositories', server.url.origin), { headers: { cookie } });

  async function signedIn(): Promise<Page> {
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    await page.goto(server.url.href);
    await page.getByTestId('view-health').waitFor(WAIT);
    return page;
  }

  it('signs out from the button: the server forgets the session and the browser its cookie', async () => {
    const page = await signedIn();
    const cookie = await cookieHeader();
    expect((await listed(cookie)).status).toBe(200);
    await page.getByTestId('sign-out').click();
    await expect.poll(() => page.getByTestId('signed-out').textContent(), WAIT).toContain('Signed out');
    expect(await page.getByTestId('signed-out').textContent()).toContain('it ends in #token=');
    expect(await browser.context.cookies(server.url.origin)).toEqual([]);
    expect(await page.getByTestId('sign-out').isHidden()).toBe(true);
    const replayed = await listed(cookie);
    expect(replayed.status).toBe(401);
    expect((await replayed.json()).error).toMatch(/^sign in first: open the URL the server printed/);
    await page.close();
  });

  it('says the session expired, and how to sign in again, once its lifetime is over', async () => {
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    await page.goto(server.url.href);
    // On a loaded machine the first view may outlast the lifetime: then the page has already said so.
    await page.locator('[data-testid=view-health], [data-testid=signed-out]').first().waitFor(WAIT);
    // The session began before its first view showed, so its lifetime is over this long after that.
    // (Timed from before goto(), the wait fell short whenever signing in took over half a second:
    // the next view then loaded still signed in, and nothing asked the API again.)
    const cookie = await cookieHeader();
    await page.waitForTimeout(LIFETIME_MS + 500);
    await page.evaluate(() => (location.hash = 'contents')); // the next view asks the API
    await expect.poll(() => page.getByTestId('signed-out').textContent(), WAIT).toContain('the session expired: open the URL the server printed');
    const expired = await listed(cookie);
    expect(expired.status).toBe(401);
    expect((await expired.json()).error).toMatch(/^sign in first/); // forgotten once it was found expired
    // Opening the printed URL again signs in afresh.
    await page.goto(server.url.href);
    await page.getByTestId('view-health').waitFor(WAIT);
    expect((await listed(await cookieHeader())).status).toBe(200);
    await page.close();
  });
});
