/**
 * Test support for the team server: a database per test file on the shared
 * PostgreSQL (created and dropped), a private PostgreSQL instance for the
 * restart check, fixture git repositories, and `reponav worker` / `serve`
 * as separate processes of the built CLI.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll } from 'vitest';
import { runCliInProcess } from '../cli/in-process-cli.js';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(PROJECT_ROOT, 'dist', 'cli', 'main.js');
/** The shared cluster the CI machine provides. */
export const SHARED_PG = process.env.REPONAV_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
const PG_BIN = '/usr/lib/postgresql/15/bin';

/** A fresh database `reponav_team_<random>` on `server`; drop() removes it (ending its connections). */
export async function createDatabase(server = SHARED_PG): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `reponav_team_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: `${server}/${name}`,
    async drop() {
      const c = new pg.Client({ connectionString: `${server}/postgres` });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** One query on `url` (a fresh connection each time, so it works across restarts). */
export async function sql<R extends pg.QueryResultRow = any>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<R>(text, values)).rows;
  } finally {
    await c.end();
  }
}

/** True when a PostgreSQL 15 server binary is installed (the private-instance test needs it). */
export function havePrivatePostgres(): boolean {
  return existsSync(join(PG_BIN, 'initdb'));
}

/**
 * A private PostgreSQL instance in a temporary folder, on its own port and
 * socket folder, so it can be stopped and started without touching the shared
 * cluster. As root, it runs as the `postgres` user (initdb refuses root).
 */
export async function startPrivatePostgres(): Promise<{ url: string; stop(): void; start(): void; destroy(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'reponav-pg-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim()), Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()));
  const run = (command: string) => {
    const result = asRoot ? spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', command], { encoding: 'utf8' }) : spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command}: ${result.stderr || result.stdout}`);
  };
  run(`${PG_BIN}/initdb -D ${dir}/data -A trust -U postgres --no-sync -E UTF8 > ${dir}/initdb.log`);
  const start = () => run(`${PG_BIN}/pg_ctl -D ${dir}/data -o '-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off' -l ${dir}/log -w start > /dev/null`);
  const stop = () => run(`${PG_BIN}/pg_ctl -D ${dir}/data -m fast -w stop > /dev/null`);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}`,
    start,
    stop,
    destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' } });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** A git repository on branch main with `files` committed; returns its path. */
export function fixtureRepo(parent: string, name: string, files: Record<string, string>): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  commitFiles(dir, files, 'initial');
  return dir;
}

/** Writes and commits `files`; returns the new commit id. */
export function commitFiles(dir: string, files: Record<string, string>, message: string): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

/** `count` small Python modules, each with a class and functions (a repository big enough to take a while to index). */
export function pythonModules(prefix: string, count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    files[`${prefix}/mod_${i}.py`] = `"""Module ${i} of ${prefix}."""\n\nclass Widget${i}:\n    def render_${i}(self, size):\n        return size * ${i}\n\n\ndef helper_${i}(value):\n    return Widget${i}().render_${i}(value) + ${i}\n`;
  }
  return files;
}

/** Runs the built CLI to completion (for what needs a process: a worker's start-up, a pipe; `fleet` commands run in-process with {@link fleetCli}). */
export function cli(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

let fleetCache: string | null = null;

/**
 * Runs a `reponav fleet …` command to completion in this process (test/cli/in-process-cli.ts's
 * main with stdout and stderr captured): its exit code and output, as {@link cli} returns them for
 * a process. Nothing the fleet commands do depends on process start-up. Calls must not overlap.
 */
export async function fleetCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  fleetCache ??= mkdtempSync(join(tmpdir(), 'reponav-team-fleet-'));
  const result = await runCliInProcess(args, { cacheDir: fleetCache });
  return { status: result.code, stdout: result.stdout, stderr: result.stderr };
}

afterAll(() => {
  if (fleetCache !== null) rmSync(fleetCache, { recursive: true, force: true });
});

/** A long-running CLI process with its stderr collected. */
export interface Proc {
  child: ChildProcess;
  log(): string;
  /** SIGKILL (kill -9). */
  kill9(): void;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
}

/** Every process spawnCli started in this test file that has not exited yet. */
const running = new Set<Proc>();

// Whatever a test file did not stop — a failed assertion before its stop, a server that started after a sibling
// failed in Promise.all — is stopped when the file ends, pass or fail.
afterAll(async () => {
  await Promise.all([...running].map((p) => p.stop()));
});

export function spawnCli(args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log += d.toString('utf8')));
  child.stdout!.on('data', (d: Buffer) => (log += d.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const proc: Proc = {
    child,
    log: () => log,
    kill9: () => child.kill('SIGKILL'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000).then(() => child.kill('SIGKILL'))]);
    },
  };
  running.add(proc);
  void exited.then(() => running.delete(proc));
  return proc;
}

/** Starts `reponav worker`. */
export function spawnWorker(url: string, store: string, workDir: string, extra: string[] = []): Proc {
  return spawnCli(['worker', '--pg', url, '--store', store, '--work-dir', workDir, '--poll', '1', '--lease', '6', '--maintenance', '1', '--verbose', ...extra]);
}

/** Starts `reponav serve` on a free port; resolves once it listens, with its MCP URL. */
export async function spawnServer(url: string, store: string, cacheDir: string | null, extra: string[] = [], env: Record<string, string> = {}): Promise<Proc & { mcpUrl: string; base: string }> {
  const proc = spawnCli(['serve', '--pg', url, '--store', store, '--port', '0', ...(cacheDir === null ? [] : ['--cache-dir', cacheDir]), ...extra], env);
  try {
    const match = await waitFor(() => /MCP at (http:\/\/\S+)\/mcp/.exec(proc.log()), 20_000, () => `server did not start: ${proc.log()}`);
    return { ...proc, mcpUrl: `${match[1]}/mcp`, base: match[1] };
  } catch (error) {
    // The caller never gets this process to stop: a server that did not start in time is stopped here.
    await proc.stop();
    throw error;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns a truthy value (or throws `describe()` after `timeoutMs`). */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs: number, describe: () => string = () => 'condition not met'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${describe()}`);
    await sleep(100);
  }
}

/** An MCP client with a bearer token. */
export async function mcpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'team-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

/** One tool call's text and error flag. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as { content: { type: string; text?: string }[]; isError?: boolean };
  return { text: result.content.map((p) => p.text ?? '').join('\n'), isError: !!result.isError };
}

/** The ready shards by repository. */
export async function readyCommits(url: string): Promise<Map<string, string[]>> {
  const rows = await sql<{ repo: string; commit: string }>(url, "SELECT repo, commit FROM reponav.commits WHERE state = 'ready' ORDER BY repo, seq");
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.repo, [...(out.get(r.repo) ?? []), r.commit]);
  return out;
}

/** A temp folder removed by the returned function. */
export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
