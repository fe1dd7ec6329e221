/**
 * The web view's Overview tab in a real browser (Debian's Chromium via
 * playwright-core): the repository map with its ranked files and symbols, a
 * focus that re-centres it, the changed files of the working tree and between
 * two revisions with their symbol changes, and the links into the outline and
 * the code. Skipped with one line when Chromium is missing, failed instead
 * with REPONAV_REQUIRE_BROWSER=1 (CI).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitHistory } from '../mcp/git-fixture.js';
import { browserRequired, chromiumProblem } from './chromium.js';
import { ensureWebBuild, launchPage, screenshotDir, startFixtureServer, type FixtureServer } from './web-harness.js';

let fx: FixtureServer;
let browser: { page: Page; close(): Promise<void> };
let page: Page;
const shots = screenshotDir();

// Missing Chromium: skipped (vitest's global setup prints what to install), unless required, when
// launchPage throws that line and every test below fails.
const skip = chromiumProblem() !== null && !browserRequired();

beforeAll(async () => {
  if (skip) return;
  ensureWebBuild();
  fx = await startFixtureServer('tools-repo');
  makeGitHistory(fx.repoDir);
  browser = await launchPage();
  page = browser.page;
});
afterAll(async () => {
  await browser?.close();
  await fx?.close();
});

const mapFiles = () => page.locator('#map-files li.map-file');
const changedPaths = async () => page.locator('#changes-table tr td:nth-child(3)').allTextContents();

describe.skipIf(skip)('Overview tab in Chromium', () => {
  it('shows the map with ranked files and their symbols beside the working tree changes', async () => {
    await page.goto(`${fx.url}#/overview`);
    await mapFiles().first().waitFor();
    await expect(page.locator('a.tab.active').textContent()).resolves.toBe('Overview');
    const heading = (await page.locator('#map-panel h2').textContent())!;
    const [, shown, total] = /^Map: (\d+) of (\d+) files$/.exec(heading)!;
    expect(Number(shown)).toBe(await mapFiles().count());
    expect(Number(shown)).toBeGreaterThan(3);
    expect(Number(total)).toBeGreaterThanOrEqual(Number(shown));
    expect(await mapFiles().locator('.rank').allTextContents()).toEqual(Array.from({ length: Number(shown) }, (_, i) => String(i + 1)));
    // The most central file shows its key signatures.
    expect(await mapFiles().first().locator('li.symbol').count()).toBeGreaterThan(0);

    await page.locator('#changes-table').waitFor();
    expect(await page.locator('#changes-panel h2').textContent()).toMatch(/^Changes: /);
    expect(await changedPaths()).toEqual([expect.stringContaining('web/src/cart.ts'), expect.stringContaining('shop/pricing.py'), expect.stringContaining('notes.py')]);
    const pricing = page.locator('#changes-table tr', { hasText: 'shop/pricing.py' });
    expect(await pricing.textContent()).toContain('round_cents');
    if (shots) await page.screenshot({ path: join(shots, 'overview.png') });
  });

  it('re-centres the map on a focus and puts the focus file first', async () => {
    await page.locator('#map-focus').fill('Cart');
    await page.locator('#map-button').click();
    await page.waitForFunction(() => document.querySelector('#map-panel h2')?.textContent?.includes('centred on'));
    expect(page.url()).toContain('#/overview?focus=Cart');
    expect(await mapFiles().first().locator('button.file-link').textContent()).toBe('web/src/cart.ts');
    // Unknown focus items are named, not dropped silently.
    await page.locator('#map-focus').fill('NoSuchThing');
    await page.locator('#map-button').click();
    await expect(page.locator('#map-panel .warning').textContent()).resolves.toBe('Focus not found: NoSuchThing');
  });

  it('lists the changes between two revisions with the symbols a commit added, and opens one in the code panel', async () => {
    await page.locator('#map-focus').fill('');
    await page.locator('#changes-from').fill('HEAD~1');
    await page.locator('#changes-to').fill('HEAD');
    await page.locator('#changes-button').click();
    await page.waitForFunction(() => document.querySelector('#changes-panel h2')?.textContent?.includes('HEAD~1'));
    expect(await changedPaths()).toEqual([expect.stringContaining('shop/models.py')]);
    const added = page.locator('#changes-table button.change-added', { hasText: '+helper' });
    await added.click();
    const panel = page.locator('#code-panel');
    await panel.locator('.line.hl').first().waitFor();
    expect(await panel.locator('.line.hl').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('def helper() -> int:')]));
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
  });

  it('opens a map file in the outline', async () => {
    await page.goto(`${fx.url}#/overview`);
    const first = mapFiles().first().locator('button.file-link');
    const path = (await first.textContent())!;
    await first.click();
    await page.waitForURL((url) => url.hash.startsWith('#/symbols?path='));
    expect(decodeURIComponent(new URL(page.url()).hash)).toContain(path);
    await page.locator('details.symbol').first().waitFor();
  });
});
