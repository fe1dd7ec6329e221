/**
 * The web view on the team server (`reponav serve`): sign-in turns a token
 * into an HttpOnly, SameSite=Strict cookie; the single-user view's API then
 * answers from the newest ready commit (or a pinned one) of the token's
 * repositories only, saying which commit answered; a repository of another
 * group gets the answer of one that does not exist, on every endpoint.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeToken } from '../../src/team/access-tokens.js';
import { browserRequired, chromiumProblem } from '../web/chromium.js';
import { ensureWebBuild, launchChromium } from '../web/web-harness.js';
import { fixtureRepo, git } from './team-harness.js';
import { startInProcessTeam, type InProcessTeam } from './team-inprocess.js';

let team: InProcessTeam;
let base = '';
let tokenA = '';
let tokenB = '';
let cookieA = '';
const heads: Record<string, string> = {};

beforeAll(async () => {
  team = await startInProcessTeam((dir) => ({
    'alpha-app': {
      group: 'alpha',
      path: fixtureRepo(dir, 'alpha-app', {
        'app/billing.py': 'class Invoice:\n    def apply_discount(self, code):\n        return parse_code(code)\n\n\ndef parse_code(code):\n    """Parse a discount code."""\n    return code.upper()\n',
        'app/cart.py': 'from app.billing import Invoice\n\n\ndef checkout(code):\n    return Invoice().apply_discount(code)\n',
      }),
    },
    'alpha-lib': { group: 'alpha', path: fixtureRepo(dir, 'alpha-lib', { 'lib/util.py': 'def shared_helper(x):\n    return x + 1\n' }) },
    'beta-secret': { group: 'beta', path: fixtureRepo(dir, 'beta-secret', { 'secret/plan.py': 'def beta_secret_function():\n    return "classified"\n' }) },
  }));
  base = team.server.url;
  for (const name of ['alpha-app', 'alpha-lib', 'beta-secret']) heads[name] = git(`${team.dir}/${name}`, 'rev-parse', 'HEAD');
  tokenA = await team.token('team-a', ['alpha']);
  tokenB = await team.token('team-b', ['beta']);
});

afterAll(async () => {
  await team?.close();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers, redirect: 'manual' });
const asA = (path: string) => get(path, { Cookie: cookieA });

async function login(token: string): Promise<Response> {
  return fetch(`${base}/login`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token }).toString() });
}

describe('team web view: sign-in', () => {
  it('sends a page without a session to the sign-in form, and refuses the API with 401', async () => {
    const page = await get('/');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('login');
    const form = await get('/login');
    expect(form.status).toBe(200);
    expect(await form.text()).toMatch(/<form method="post" action="login">/);
    for (const path of ['/api/info', '/api/search?q=x', '/api/files?repo=alpha-app']) expect((await get(path)).status, path).toBe(401);
    // Without a webhook secret there is no webhook.
    expect((await fetch(`${base}/webhook`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('turns a valid token into an HttpOnly, SameSite=Strict cookie and refuses a wrong one', async () => {
    const wrong = await login('rnv_not-a-token');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(await wrong.text()).toContain('That token is not valid');
    const ok = await login(tokenA);
    expect(ok.status).toBe(303);
    const cookie = ok.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^reponav_token=rnv_[^;]+; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+$/);
    cookieA = cookie.split(';')[0];
    const page = await asA('/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app"');
    // The cookie is for the pages; MCP clients send the bearer header.
    const mcp = await fetch(`${base}/mcp`, { method: 'POST', headers: { Cookie: cookieA, 'Content-Type': 'application/json' }, body: '{}' });
    expect(mcp.status).toBe(401);
  });
});

describe('team web view: answers', () => {
  it('lists only the token\'s repositories, with their served commits', async () => {
    const info = await (await asA('/api/info')).json();
    expect(info.repositories.map((r: { name: string }) => r.name)).toEqual(['alpha-app', 'alpha-lib']);
    expect(info.team.token).toBe('team-a');
    expect(info.team.repositories[0]).toMatchObject({ name: 'alpha-app', branch: 'main', servedCommit: heads['alpha-app'], lagCommits: 0 });
    expect(JSON.stringify(info)).not.toMatch(/beta/);
  });

  it('answers search, files, symbols and code from the newest ready commit, saying which', async () => {
    const search = await asA('/api/search?repo=alpha-app&q=discount+code+on+an+invoice');
    expect(search.status).toBe(200);
    expect(search.headers.get('x-reponav-commit')).toBe(heads['alpha-app']);
    const body = await search.json();
    expect(body.answeredFrom).toEqual({ repo: 'alpha-app', commit: heads['alpha-app'] });
    expect(body.text).toContain('app/billing.py');
    const files = await (await asA('/api/files?repo=alpha-app')).json();
    expect(files.paths).toEqual(['app/billing.py', 'app/cart.py']);
    const outline = await (await asA('/api/symbols?repo=alpha-app&path=app/billing.py')).json();
    expect(outline.symbols.map((s: { qualifiedName: string }) => s.qualifiedName)).toContain('Invoice.apply_discount');
    const code = await (await asA('/api/code?repo=alpha-app&symbol=parse_code')).json();
    expect(code).toMatchObject({ path: 'app/billing.py', highlight: { start: 6, end: 8 }, answeredFrom: { commit: heads['alpha-app'] } });
    // A bearer header works as well as the cookie (scripts, the page's fetches through a proxy).
    const bearer = await get('/api/files?repo=alpha-lib', { Authorization: `Bearer ${tokenA}` });
    expect((await bearer.json()).paths).toEqual(['lib/util.py']);
  });

  it('answers from a pinned commit, and says so for a commit that has no index', async () => {
    const pinned = await (await asA(`/api/files?repo=alpha-app&commit=${heads['alpha-app'].slice(0, 9)}`)).json();
    expect(pinned.answeredFrom.commit).toBe(heads['alpha-app']);
    const bad = await asA('/api/files?repo=alpha-app&commit=xyz');
    expect(bad.status).toBe(400);
    const missing = await asA('/api/files?repo=alpha-app&commit=deadbeef');
    expect(missing.status).toBe(409);
    expect((await missing.json()).error).toMatch(/^Commit 'deadbeef' of 'alpha-app' has no index/);
  });

  it('opens no file by path; uploads still work', async () => {
    const byPath = await asA('/api/report?path=/etc/passwd');
    expect(byPath.status).toBe(403);
    const trace = readFileSync(join(import.meta.dirname, '..', 'web', 'fixtures', 'ask-trace.json'), 'utf8');
    const upload = await fetch(`${base}/api/trace`, { method: 'POST', headers: { Cookie: cookieA, 'Content-Type': 'application/json', 'X-File-Name': 'ask-trace.json' }, body: trace });
    expect(upload.status).toBe(200);
    expect((await upload.json()).source).toBe('ask-trace.json');
  });
});

// Without Chromium the browser test is skipped (vitest's global setup says what to install); CI requires it.
const noBrowser = chromiumProblem() !== null && !browserRequired();

describe.skipIf(noBrowser)('team web view in Chromium', () => {
  it('signs in with a token, browses the token\'s repositories and shows the commit that answered', async () => {
    ensureWebBuild();
    const browser = await launchChromium();
    try {
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      page.setDefaultTimeout(20_000);
      await page.goto(`${base}/`);
      expect(page.url()).toBe(`${base}/login`);
      await page.locator('#token').fill(tokenA);
      await page.locator('button[type=submit]').click();
      const select = page.locator('#repo-select');
      await select.waitFor();
      expect(await select.locator('option').allTextContents()).toEqual(['alpha-app', 'alpha-lib']);
      expect(page.url()).toContain('?repo=alpha-app');
      const cookies = await browser.context.cookies();
      expect(cookies.find((c) => c.name === 'reponav_token')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      await page.locator('#search-query').fill('discount code on an invoice');
      await page.locator('#search-query').press('Enter');
      await page.locator('#scaffold-text').waitFor();
      expect(await page.locator('#scaffold-text').textContent()).toContain('app/billing.py');
      await page.locator('#answered-from', { hasText: `answered from alpha-app at ${heads['alpha-app'].slice(0, 12)}` }).waitFor();
      await select.selectOption('alpha-lib');
      await page.waitForURL(/repo=alpha-lib/);
      await page.locator('#scaffold-text').waitFor();
      await page.locator('#answered-from', { hasText: `answered from alpha-lib at ${heads['alpha-lib'].slice(0, 12)}` }).waitFor();
      expect(await page.content()).not.toMatch(/beta/);
      await page.locator('.signout button').click();
      await page.waitForURL(`${base}/login`);
    } finally {
      await browser.close();
    }
  });
});

describe('team web view: scoping', () => {
  it('gives a repository of another group exactly the answer of one that does not exist, on every endpoint', async () => {
    const probes = ['/api/search?q=classified', '/api/files', '/api/symbols?path=secret/plan.py', '/api/code?path=secret/plan.py', '/api/code?symbol=beta_secret_function'];
    for (const probe of probes) {
      const hidden = await asA(`${probe}&repo=beta-secret`.replace('/api/files&', '/api/files?'));
      const missing = await asA(`${probe}&repo=no-such-repo`.replace('/api/files&', '/api/files?'));
      expect(hidden.status, probe).toBe(404);
      expect(missing.status, probe).toBe(404);
      const [h, m] = [await hidden.text(), await missing.text()];
      expect(h.replace('beta-secret', 'X')).toBe(m.replace('no-such-repo', 'X'));
      expect(JSON.parse(h).error).toBe("Unknown repo 'beta-secret'; use one of 'alpha-app', 'alpha-lib'.");
      // Without a repo (two visible: the page must name one), or in an alpha repository with beta's commit pinned: nothing of beta.
      for (const scoped of [probe, `${probe}&repo=alpha-app&commit=${heads['beta-secret']}`.replace('/api/files&', '/api/files?')]) {
        const text = await (await asA(scoped)).text();
        expect(text, scoped).not.toMatch(/beta-secret|classified|secret\/plan/);
      }
    }
    // Group beta sees its repository and only it.
    const beta = await get('/api/code?symbol=beta_secret_function', { Authorization: `Bearer ${tokenB}` });
    expect((await beta.json()).path).toBe('secret/plan.py');
  });

  it('ends the session on sign-out and when the token is revoked', async () => {
    const out = await fetch(`${base}/logout`, { method: 'POST', redirect: 'manual', headers: { Cookie: cookieA } });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/^reponav_token=; .*Max-Age=0/);
    const other = (await login(tokenB)).headers.get('set-cookie')!.split(';')[0];
    expect((await get('/api/info', { Cookie: other })).status).toBe(200);
    await revokeToken(team.db, 'team-b');
    expect((await get('/api/info', { Cookie: other })).status).toBe(401);
  });
});
