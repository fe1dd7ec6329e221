/**
 * The web view's JSON API over HTTP, on a copy of the tools fixture
 * repository: answers, error statuses, the request guard and static serving.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeResponse, OutlineResponse, ReportResponse, SearchResponse, TraceResponse } from '../../src/http-api/api-types.js';
import { startWebServer } from '../../src/http-api/web-server.js';
import { RepositorySet } from '../../src/tools/repository-set.js';
import { holdRefresh } from '../helpers/held-refresh.js';
import { FIXTURES, startFixtureServer, type FixtureServer } from './web-harness.js';

let fx: FixtureServer;
let assets: string;

beforeAll(async () => {
  // A tiny stand-in build, so static serving is tested without running Vite.
  assets = mkdtempSync(join(tmpdir(), 'reponav-web-assets-'));
  writeFileSync(join(assets, 'index.html'), '<!doctype html><title>stub</title>');
  fx = await startFixtureServer('tools-repo', { assetsDir: assets });
});
afterAll(async () => {
  await fx.close();
  rmSync(assets, { recursive: true, force: true });
});

async function get<T = any>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(new URL(path, fx.url), init);
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // static text
  }
  return { status: res.status, body, headers: res.headers };
}

/** A raw request with a chosen Host header (fetch does not allow setting it). */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(path, fx.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('repository endpoints', () => {
  it('searches: the scaffold text plus ranked files, targets and functions with spans', async () => {
    const { status, body } = await get<SearchResponse>('/api/search?q=cart%20checkout%20total%20price%20discount');
    expect(status).toBe(200);
    expect(body.text).toContain('[ANCHORS]');
    expect(body.text).toContain('[CANDIDATE_TARGETS]');
    expect(body.files[0]).toMatchObject({ path: expect.any(String), score: expect.any(Number), evidence: expect.any(Number) });
    const expanded = body.scaffold.files.filter((f) => f.expanded);
    expect(expanded.length).toBeGreaterThan(0);
    expect(expanded[0]!.targets!.length).toBeGreaterThan(0);
    expect(body.functions.length).toBeGreaterThan(0);
    expect(body.functions.every((f) => typeof f.startLine === 'number' && f.endLine! >= f.startLine!)).toBe(true);
  });

  it('rejects a search without a query', async () => {
    const { status, body } = await get('/api/search?q=');
    expect(status).toBe(400);
    expect(body.error).toMatch(/query/);
  });

  it('shows code with the span to highlight, by lines or by symbol', async () => {
    const byLines = await get<CodeResponse>('/api/code?path=shop/pricing.py&start=22&end=23');
    expect(byLines.status).toBe(200);
    expect(byLines.body).toMatchObject({ path: 'shop/pricing.py', firstLine: 1, highlight: { start: 22, end: 23 } });
    expect(byLines.body.lines[21]).toContain('def apply_tax');
    const bySymbol = await get<CodeResponse>('/api/code?path=shop/models.py&symbol=Order.total');
    expect(bySymbol.body.highlight).toEqual({ start: 34, end: 37 });
    expect(bySymbol.body.symbol).toEqual({ qualifiedName: 'Order.total', kind: 'method' });
    expect(bySymbol.body.lines.length).toBe(bySymbol.body.lineCount);
  });

  it('refuses paths outside the repository and reports missing files', async () => {
    const escape = await get('/api/code?path=../../../../etc/passwd');
    expect(escape.status).toBe(403);
    expect(escape.body.error).toMatch(/outside/i);
    const missing = await get('/api/code?path=shop/nope.py');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/nope\.py/);
    const badLine = await get('/api/code?path=shop/pricing.py&start=abc');
    expect(badLine.status).toBe(400);
  });

  it('outlines a file with same-file call edges and import links', async () => {
    const { status, body } = await get<OutlineResponse>('/api/symbols?path=shop/models.py');
    expect(status).toBe(200);
    const total = body.symbols.find((s) => s.qualifiedName === 'Order.total')!;
    // `item.subtotal()` goes through a loop variable nothing declares as an Item: find_references lists it under
    // other receivers, so the page shows no edge either (one resolution for both).
    expect(total.invokes).toEqual(['Order._apply_discount']);
    expect(body.symbols.find((s) => s.qualifiedName === 'Order._apply_discount')!.invokedBy).toContain('Order.total');
    expect(body.importedBy).toEqual(expect.arrayContaining(['shop/pricing.py', 'shop/service.py']));
    expect(body.text).toContain('[FILE] shop/models.py');
    const service = await get<OutlineResponse>('/api/symbols?path=shop/service.py');
    expect(service.body.importsFiles).toEqual(expect.arrayContaining(['shop/models.py', 'shop/pricing.py']));
  });

  it('lists indexed files and tells about the repository', async () => {
    const files = await get('/api/files');
    expect(files.body.paths).toContain('shop/models.py');
    const info = await get('/api/info');
    expect(info.body.repositories[0].name).toBe('tools-repo');
  });
});

describe('documents', () => {
  it('opens a trace by path (relative to the base folder) and by upload', async () => {
    const byPath = await get<TraceResponse>('/api/trace?path=ask-trace.json');
    expect(byPath.status).toBe(200);
    expect(byPath.body.trace.nodes).toHaveLength(7);
    expect(byPath.body.warnings).toEqual([]);
    const text = (await import('node:fs')).readFileSync(join(FIXTURES, 'ask-trace.json'), 'utf8');
    const upload = await get<TraceResponse>('/api/trace', { method: 'POST', body: text, headers: { 'Content-Type': 'application/json', 'X-File-Name': 'my%20trace.json' } });
    expect(upload.status).toBe(200);
    expect(upload.body.source).toBe('my trace.json');
  });

  it('explains unreadable traces', async () => {
    const missing = await get('/api/trace?path=/no/such/trace.json');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('No file at /no/such/trace.json.');
    const notTrace = await get('/api/trace?path=locbench-summary-a.json');
    expect(notTrace.status).toBe(422);
    expect(notTrace.body.error).toMatch(/is not a reponav ask trace/);
    const broken = await get('/api/trace', { method: 'POST', body: '{"nodes": [', headers: { 'Content-Type': 'application/json' } });
    expect(broken.status).toBe(422);
    expect(broken.body.error).toMatch(/is not valid JSON/);
    const badNode = await get('/api/trace', {
      method: 'POST',
      body: JSON.stringify({ version: 1, method: 'mcts', question: 'q', nodes: [{ id: 'x', parentId: null, action: null }], answer: { text: '' } }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(badNode.status).toBe(422);
    expect(badNode.body.error).toMatch(/nodes\[0\]\.id/);
    const noType = await get('/api/trace', { method: 'POST', body: '{}', headers: {} });
    expect(noType.status).toBe(415);
  });

  it('never quotes a non-JSON file in its error', async () => {
    const { body } = await get(`/api/trace?path=${encodeURIComponent(join(fx.repoDir, 'shop', 'pricing.py'))}`);
    expect(body.error).toMatch(/is not valid JSON/);
    expect(body.error).not.toMatch(/Taxes/);
  });

  it('opens LocBench and SWE-QA summaries, and a folder by its summary.json', async () => {
    const a = await get<ReportResponse>('/api/report?path=locbench-summary-a.json');
    expect(a.status).toBe(200);
    expect(a.body.kind).toBe('locbench');
    const sweqa = await get<ReportResponse>('/api/report?path=sweqa-summary.json');
    expect(sweqa.body.kind).toBe('sweqa');
    const folder = mkdtempSync(join(tmpdir(), 'reponav-web-run-'));
    writeFileSync(join(folder, 'summary.json'), (await import('node:fs')).readFileSync(join(FIXTURES, 'locbench-summary-b.json')));
    const byFolder = await get<ReportResponse>(`/api/report?path=${encodeURIComponent(folder)}`);
    expect(byFolder.status).toBe(200);
    expect(byFolder.body.source).toBe(join(folder, 'summary.json'));
    rmSync(folder, { recursive: true, force: true });
    const bad = await get('/api/report?path=ask-trace.json');
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/not a reponav LocBench summary/);
  });
});

describe('protocol and guard', () => {
  it('answers unknown endpoints and methods with JSON errors', async () => {
    const unknown = await get('/api/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/No API endpoint/);
    const method = await get('/api/search', { method: 'DELETE' });
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET');
  });

  it('refuses other hosts (DNS rebinding) and other origins', async () => {
    const host = await rawGet('/api/info', { Host: 'evil.example:80' });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body).error).toMatch(/not allowed/);
    const origin = await get('/api/info', { headers: { Origin: 'http://evil.example' } });
    expect(origin.status).toBe(403);
    const own = await get('/api/info', { headers: { Origin: fx.url.replace(/\/$/, '') } });
    expect(own.status).toBe(200);
  });

  it('serves the front end with a strict policy and nothing outside its folder', async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    const traversal = await rawGet('/%2e%2e/%2e%2e/package.json', {});
    expect(traversal.status).toBe(404);
    expect((await get('/.hidden')).status).toBe(404);
  });

  it('says how to build the front end when it is missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'reponav-web-nobuild-'));
    const other = await startWebServer({ repositories: await openSame(), port: 0, assetsDir: empty });
    const res = await fetch(other.url);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build:web');
    await other.close();
    rmSync(empty, { recursive: true, force: true });
  });

  it('refuses a non-loopback bind unless allowed', async () => {
    await expect(startWebServer({ repositories: await openSame(), host: '0.0.0.0', port: 0 })).rejects.toThrow(/Refusing to serve/);
  });
});

/** A second handle on the fixture copy (the first server keeps its own). */
let same: RepositorySet | null = null;
async function openSame(): Promise<RepositorySet> {
  same ??= await RepositorySet.open([{ path: fx.repoDir }]);
  return same;
}
afterAll(async () => {
  await same?.close();
});

describe('a repository that cannot be indexed', () => {
  it('answers search with a plain JSON error', async () => {
    const empty = await startFixtureServer(null);
    try {
      const res = await fetch(new URL('/api/search?q=anything', empty.url));
      expect(res.status).toBe(409);
      const body = (await res.json()) as { error: string; code: string };
      expect(body.code).toBe('EMPTY_REPOSITORY');
      expect(body.error.length).toBeGreaterThan(10);
    } finally {
      await empty.close();
    }
  });
});

describe('while the index is being built', () => {
  it('answers 503 INDEXING with progress, then the real answer', async () => {
    const slow = await startFixtureServer('tools-repo', { indexWaitMs: 0 });
    // Held: a refresh whose steps are all synchronous can beat a 0 ms wait (seen in a full run).
    const held = holdRefresh(slow.repositories.select().index);
    try {
      const first = await fetch(new URL('/api/search?q=tax', slow.url));
      expect(first.status).toBe(503);
      expect(first.headers.get('retry-after')).toBe('2');
      const body = (await first.json()) as { code: string; error: string; indexing: { done: number } };
      expect(body.code).toBe('INDEXING');
      expect(body.error).toMatch(/Indexing repository 'tools-repo'/);
      expect(body.indexing.done).toBeGreaterThanOrEqual(0);
      held.release();
      await slow.repositories.select().ensureFresh();
      // The call's own check finds nothing changed: waited for, whatever the index wait, so the answer is the real one.
      expect((await fetch(new URL('/api/search?q=tax', slow.url))).status).toBe(200);
    } finally {
      held.restore();
      await slow.close();
    }
  });
});
