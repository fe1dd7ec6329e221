/**
 * Ctrl-C (SIGINT) during `reponav index`: the process says on stderr that the
 * files indexed so far are kept and the next run resumes, and exits 130; the
 * next `reponav index` finishes the index from there. The signal is sent once
 * the build has recorded progress (its writer file), not after a delay.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, ensureBuilt, put, runCli, spawnCli, tempDir } from './harness.js';

beforeAll(ensureBuilt, 300_000);
afterAll(cleanupTempDirs);

let child: ChildProcess | null = null;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = null;
});

/** The build's recorded progress, or null before it has written any. */
function progressOf(indexPath: string): { done: number; total: number } | null {
  try {
    return JSON.parse(readFileSync(`${indexPath}.writer`, 'utf8')) as { done: number; total: number };
  } catch {
    return null;
  }
}

describe('Ctrl-C during reponav index', () => {
  it('exits 130 saying the work so far is kept and the next run resumes; the next run finishes the index', async () => {
    const dir = tempDir();
    const root = join(dir, 'repo');
    const cacheDir = join(dir, 'cache');
    const indexPath = join(dir, 'index.db');
    const body = Array.from({ length: 40 }, (_, j) => `def handler_${j}(event):\n    """Handle event ${j}."""\n    return event.get('k${j}')\n`).join('\n');
    for (let i = 0; i < 600; i++) put(root, `pkg/m${i}.py`, `# module ${i}\n${body}`);
    const running = spawnCli(['index', root, '--index-path', indexPath], { cacheDir });
    child = running;
    let stderr = '';
    let stdout = '';
    running.stderr!.on('data', (chunk) => (stderr += String(chunk)));
    running.stdout!.on('data', (chunk) => (stdout += String(chunk)));
    const exited = new Promise<number | null>((resolve) => running.on('exit', (code) => resolve(code)));
    // Wait for an event (progress written), polling the file; a build that ends first is a failed precondition.
    // Interrupted with at least half the files to go: once the build is done the handler is gone, and a SIGINT in
    // the moment before the process exits ends it by the signal (seen on a fast machine when interrupted late).
    let ended = false;
    void exited.then(() => (ended = true));
    while (!ended) {
      const progress = progressOf(indexPath);
      if (progress && progress.done > 0 && progress.done <= progress.total / 2) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(ended, `the build ended before it could be interrupted: ${stdout}${stderr}`).toBe(false);
    running.kill('SIGINT');
    const code = await exited;
    expect(code).toBe(130);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe('interrupted: the files indexed so far are kept; the next reponav command resumes the index from there.');

    const status = runCli(['status', root, '--index-path', indexPath], { cacheDir });
    expect(status.stdout).toMatch(/^Indexed: {4}(not yet: the first index was interrupted after \d+ files?; run `reponav index` to finish|never \(run `reponav index`\))$/m);
    const resumed = runCli(['index', root, '--index-path', indexPath, '-q'], { cacheDir });
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = runCli(['status', root, '--index-path', indexPath], { cacheDir });
    expect(after.stdout).toMatch(/^Contents: {3}600 files,/m);
    expect(after.stdout).toMatch(/^Freshness: {2}up to date$/m);
  }, 300_000);
});
