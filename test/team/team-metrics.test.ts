/**
 * `/metrics` of `worker` and `serve` as Prometheus scrapes them: only with
 * the metrics token (group tokens and no token are refused and counted), and
 * with counts that match what happened — each repository built once, the
 * tool calls made by outcome, the cache's downloads and hits, the refused
 * tokens, the lag and the unreadable head of a repository whose remote is gone.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, cli, createDatabase, fixtureRepo, fleetCli, mcpClient, readyCommits, spawnServer, spawnWorker, tempDir, waitFor } from './team-harness.js';

const temp = tempDir('reponav-team-metrics-');
let db: Awaited<ReturnType<typeof createDatabase>>;
let token: string;
const METRICS_TOKEN = 'metrics-secret-0123456789abcdef';

beforeAll(async () => {
  db = await createDatabase();
  expect((await fleetCli(['fleet', 'migrate', '--pg', db.url])).status).toBe(0);
  for (const name of ['m0', 'm1']) {
    const path = fixtureRepo(temp.dir, name, { [`${name}.py`]: `def alpha_${name}():\n    return 1\n\n\ndef beta_${name}():\n    return alpha_${name}()\n` });
    expect((await fleetCli(['fleet', 'add', name, path, '--groups', 'g', '--no-sync', '--pg', db.url])).status).toBe(0);
  }
  // A repository whose remote does not exist: its head stays unreadable.
  expect((await fleetCli(['fleet', 'add', 'gone', `${temp.dir}/no-such-repo`, '--groups', 'g', '--no-sync', '--pg', db.url])).status).toBe(0);
  token = (await fleetCli(['fleet', 'token', 'create', 't', '--groups', 'g', '--pg', db.url])).stdout.trim();
  writeFileSync(`${temp.dir}/metrics-token`, `${METRICS_TOKEN}\n`);
}, 60_000);

afterAll(async () => {
  await db?.drop();
  temp.remove();
});

/** One sample of the exposition: its metric name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus text exposition (what the tests need: samples and TYPE lines). */
function parse(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1], type[2]);
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not exposition text: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { samples, types };
}

/** The value of the one sample of `name` whose labels include `labels` (undefined when none). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0]?.value;
}

async function scrape(url: string, auth?: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { headers: auth ? { Authorization: auth } : {} });
  return { status: response.status, text: await response.text() };
}

describe('/metrics', () => {
  it('worker and serve expose builds, queue, lag, tool latency, cache use and refused tokens, to the metrics token only', async () => {
    const worker = spawnWorker(db.url, `${temp.dir}/store`, `${temp.dir}/w0`, ['--metrics-port', '0', '--metrics-token-file', `${temp.dir}/metrics-token`]);
    const workerUrl = (await waitFor(() => /metrics at (http:\/\/\S+\/metrics)/.exec(worker.log()), 30_000, () => worker.log()))[1];
    await waitFor(async () => (await readyCommits(db.url)).size === 2, 60_000, () => worker.log());

    // Refused without the metrics token, and with a group token.
    expect((await scrape(workerUrl)).status).toBe(401);
    expect((await scrape(workerUrl, `Bearer ${token}`)).status).toBe(401);
    const w = await scrape(workerUrl, `Bearer ${METRICS_TOKEN}`);
    expect(w.status).toBe(200);
    const ws = parse(w.text);
    for (const repo of ['m0', 'm1']) {
      expect(value(ws.samples, 'reponav_builds_total', { repo, outcome: 'built', role: 'worker' })).toBe(1);
      expect(value(ws.samples, 'reponav_build_duration_seconds_count', { repo })).toBe(1);
      expect(value(ws.samples, 'reponav_repo_lag_commits', { repo })).toBe(0);
      expect(value(ws.samples, 'reponav_repo_head_unreadable', { repo })).toBe(0);
    }
    expect(ws.types.get('reponav_build_duration_seconds')).toBe('histogram');
    expect(value(ws.samples, 'reponav_repo_head_unreadable', { repo: 'gone' })).toBe(1);
    // Unknown while the head cannot be read: no lag sample at all.
    expect(value(ws.samples, 'reponav_repo_lag_commits', { repo: 'gone' })).toBeUndefined();
    expect(value(ws.samples, 'reponav_poll_passes_total')).toBeGreaterThanOrEqual(1);
    for (const state of ['created', 'retry', 'active', 'failed']) expect(value(ws.samples, 'reponav_queue_jobs', { state })).toBeGreaterThanOrEqual(0);
    expect(value(ws.samples, 'reponav_auth_failures_total', { reason: 'missing' })).toBe(1);
    expect(value(ws.samples, 'reponav_auth_failures_total', { reason: 'invalid' })).toBe(1);

    const server = await spawnServer(db.url, `${temp.dir}/store`, `${temp.dir}/cache`, ['--metrics-token-file', `${temp.dir}/metrics-token`]);
    const client = await mcpClient(server.mcpUrl, token);
    for (let i = 0; i < 3; i++) expect((await call(client, 'search', { repo: 'm0', query: 'alpha' })).isError).toBe(false);
    expect((await call(client, 'search', { repo: 'nope', query: 'alpha' })).isError).toBe(true);
    expect((await call(client, 'search', { repo: 'm1', query: 'beta' })).isError).toBe(false);
    expect((await call(client, 'index_status', {})).isError).toBe(false);
    await client.close();
    // Refused tokens: two without one, one with a wrong one; then one metrics scrape with a group token.
    expect((await fetch(`${server.base}/api/repos`)).status).toBe(401);
    expect((await fetch(`${server.base}/mcp`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${server.base}/api/repos`, { headers: { Authorization: 'Bearer rnv_not-a-token' } })).status).toBe(401);
    expect((await scrape(`${server.base}/metrics`, `Bearer ${token}`)).status).toBe(401);

    const s = await scrape(`${server.base}/metrics`, `Bearer ${METRICS_TOKEN}`);
    expect(s.status).toBe(200);
    const ss = parse(s.text);
    expect(ss.types.get('reponav_tool_duration_seconds')).toBe('histogram');
    expect(value(ss.samples, 'reponav_tool_duration_seconds_count', { tool: 'search', outcome: 'ok', role: 'serve' })).toBe(4);
    expect(value(ss.samples, 'reponav_tool_duration_seconds_count', { tool: 'search', outcome: 'error' })).toBe(1);
    expect(value(ss.samples, 'reponav_tool_duration_seconds_count', { tool: 'index_status', outcome: 'ok' })).toBe(1);
    // m0 downloaded once and then hit twice; m1 downloaded once; index_status reads no shard.
    expect(value(ss.samples, 'reponav_shard_cache_misses_total')).toBe(2);
    expect(value(ss.samples, 'reponav_shard_cache_hits_total')).toBe(2);
    expect(value(ss.samples, 'reponav_auth_failures_total', { reason: 'missing' })).toBe(2);
    expect(value(ss.samples, 'reponav_auth_failures_total', { reason: 'invalid' })).toBe(2);
    expect(value(ss.samples, 'reponav_repo_lag_commits', { repo: 'm0' })).toBe(0);
    expect(value(ss.samples, 'reponav_repo_head_unreadable', { repo: 'gone' })).toBe(1);
    // A worker's counters are its own: the server reports no builds.
    expect(ss.samples.some((x) => x.name === 'reponav_builds_total')).toBe(false);

    await server.stop();
    await worker.stop();
  }, 150_000);

  it('is off without a metrics token: 404 on serve, and a worker refuses --metrics-port', async () => {
    const server = await spawnServer(db.url, `${temp.dir}/store`, `${temp.dir}/cache-off`);
    const off = await scrape(`${server.base}/metrics`, `Bearer ${METRICS_TOKEN}`);
    expect(off.status).toBe(404);
    expect(off.text).toMatch(/--metrics-token-file/);
    await server.stop();
    const worker = cli(['worker', '--pg', db.url, '--store', `${temp.dir}/store`, '--work-dir', `${temp.dir}/w-off`, '--metrics-port', '0'], { REPONAV_METRICS_TOKEN: '' });
    expect(worker.status).toBe(1);
    expect(worker.stderr.trim()).toBe('error: --metrics-port needs a metrics token: pass --metrics-token-file FILE or set REPONAV_METRICS_TOKEN.');
  }, 60_000);
});
