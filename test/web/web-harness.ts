/**
 * Shared set-up of the web view tests: the tools fixture repository copied to
 * a temp folder (indexes in a temp cache), a server on port 0, the built
 * front end (built on demand), and Debian's Chromium through playwright-core.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { CHROMIUM, chromiumProblem } from './chromium.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { RepositorySet } from '../../src/tools/repository-set.js';
import { defaultAssetsDir, hasBuiltAssets } from '../../src/http-api/static-assets.js';
import { startWebServer, type RunningWebServer, type WebServerOptions } from '../../src/http-api/web-server.js';

/** The repository root (two levels above this file). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Fixture documents (traces, summaries). */
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** A server over a fresh copy of a fixture repository. */
export interface FixtureServer {
  server: RunningWebServer;
  /** The served repositories (the fixture copy). */
  repositories: RepositorySet;
  url: string;
  repoDir: string;
  close(): Promise<void>;
}

/**
 * Copies `test/fixtures/<fixture>` (or makes an empty folder when `fixture`
 * is null) and serves it. REPONAV_CACHE_DIR points into the temp folder for
 * the server's lifetime so no user cache is touched.
 */
export async function startFixtureServer(fixture: string | null = 'tools-repo', options: Partial<WebServerOptions> = {}): Promise<FixtureServer> {
  const dir = mkdtempSync(join(tmpdir(), 'reponav-web-'));
  const repoDir = join(dir, fixture ?? 'empty-repo');
  if (fixture) cpSync(join(PACKAGE_ROOT, 'test', 'fixtures', fixture), repoDir, { recursive: true });
  else mkdirSync(repoDir);
  const savedCache = process.env.REPONAV_CACHE_DIR;
  process.env.REPONAV_CACHE_DIR = join(dir, 'cache');
  const repositories = await RepositorySet.open([{ path: repoDir }]);
  const server = await startWebServer({ repositories, port: 0, baseDir: FIXTURES, ...options });
  return {
    server,
    repositories,
    url: server.url,
    repoDir,
    close: async () => {
      await server.close();
      await repositories.close();
      if (savedCache === undefined) delete process.env.REPONAV_CACHE_DIR;
      else process.env.REPONAV_CACHE_DIR = savedCache;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The newest modification time under `dir` (recursively), in ms. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Makes sure `dist/web-ui` exists and is not older than web/, running
 * `npm run build:web` otherwise; throws a message saying what to run when
 * the build fails.
 */
export function ensureWebBuild(): string {
  const dir = defaultAssetsDir();
  const fresh = hasBuiltAssets(dir) && statSync(join(dir, 'index.html')).mtimeMs >= newestMtime(join(PACKAGE_ROOT, 'web'));
  if (fresh) return dir;
  try {
    execFileSync('npm', ['run', 'build:web'], { cwd: PACKAGE_ROOT, stdio: 'pipe', timeout: 180_000 });
  } catch (error) {
    const detail = error instanceof Error && 'stderr' in error ? String((error as { stderr: unknown }).stderr).slice(-2000) : String(error);
    throw new Error(`The web front end is not built and \`npm run build:web\` failed; run it by hand to see why.\n${detail}`);
  }
  if (!hasBuiltAssets(dir)) throw new Error(`\`npm run build:web\` ran but ${dir}/index.html is missing.`);
  return dir;
}

export { CHROMIUM };

/** Launches headless Chromium with a fresh profile; `close()` also removes the profile. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const problem = chromiumProblem();
  if (problem) throw new Error(problem.replace('browser tests skipped: ', ''));
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'reponav-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1440, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Headless Chromium (see launchChromium) and its first page, with the tests' 20 s step timeout. */
export async function launchPage(): Promise<{ page: Page; close(): Promise<void> }> {
  const browser = await launchChromium();
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.setDefaultTimeout(20_000);
  return { page, close: browser.close };
}

/** Where screenshots go when REPONAV_SCREENSHOTS is set (to `1` or a folder), else null. */
export function screenshotDir(): string | null {
  const flag = process.env.REPONAV_SCREENSHOTS;
  if (!flag) return null;
  const dir = flag === '1' || flag === 'true' ? join(PACKAGE_ROOT, 'docs', 'screenshots') : flag;
  mkdirSync(dir, { recursive: true });
  return dir;
}

