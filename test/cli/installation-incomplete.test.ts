/**
 * A package whose grammar query files are missing (a copied `dist/` without
 * `queries/`) is an installation fault, not a folder of unparseable files: `index`
 * stops with one sentence naming what is missing, and once the files are back the
 * same index completes with nothing failed. Before, every file was recorded as a
 * failed parse and the text-only index answered as if healthy.
 */
import { cpSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture, ensureBuilt, expectOneSentenceError, PROJECT_ROOT, tempDir, type CliResult } from './harness.js';

afterAll(cleanupTempDirs);
beforeAll(ensureBuilt, 300_000);

function run(pkg: string, args: string[], cacheDir: string): CliResult {
  const env: NodeJS.ProcessEnv = { ...process.env, REPONAV_CACHE_DIR: cacheDir, FORCE_COLOR: '0' };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS') delete env[key];
  const result = spawnSync(process.execPath, [join(pkg, 'dist/cli/main.js'), ...args], { encoding: 'utf8', env, timeout: 120_000 });
  return { code: result.status, signal: result.signal, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

describe('an incomplete installation', () => {
  it('stops index with one sentence naming the missing query files, then completes once they are back', () => {
    const pkg = join(tempDir('reponav-pkg-'), 'reponav');
    cpSync(join(PROJECT_ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
    cpSync(join(PROJECT_ROOT, 'package.json'), join(pkg, 'package.json'));
    symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
    const { root, cacheDir } = copyIndexFixture();

    const broken = run(pkg, ['index', root], cacheDir);
    const line = expectOneSentenceError(broken, 1);
    expect(line).toContain("reponav's installation is incomplete");
    expect(line).toMatch(/queries\/(python|typescript)\.scm/);

    cpSync(join(PROJECT_ROOT, 'queries'), join(pkg, 'queries'), { recursive: true });
    const fixed = run(pkg, ['index', root], cacheDir);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout + fixed.stderr).toMatch(/0 failed/);

    // The learned ranker's model is package data too: without it `--ranker learned` names it and the way out.
    const noModel = run(pkg, ['search', 'load the settings file', '--repo', root, '-q', '--ranker', 'learned'], cacheDir);
    const modelLine = expectOneSentenceError(noModel, 1);
    expect(modelLine).toMatch(/models\/ranker\.json cannot be read/);
    expect(modelLine).toContain('--ranker hand');
    // The default ranker (auto) reads the model's own `use` too, so it fails the same way; only the hand order needs no model.
    const noModelDefault = run(pkg, ['search', 'load the settings file', '--repo', root, '-q'], cacheDir);
    expect(expectOneSentenceError(noModelDefault, 1)).toMatch(/models\/ranker\.json cannot be read/);
    const handOnly = run(pkg, ['search', 'load the settings file', '--repo', root, '-q', '--ranker', 'hand'], cacheDir);
    expect(handOnly.code, handOnly.stderr).toBe(0);
    cpSync(join(PROJECT_ROOT, 'models'), join(pkg, 'models'), { recursive: true });
    // The CLI bundle (dist/cli/) finds the shipped model from its own folder.
    const learned = run(pkg, ['search', 'load the settings file', '--repo', root, '-q', '--ranker', 'learned', '--json'], cacheDir);
    expect(learned.code, learned.stderr).toBe(0);
    const hand = run(pkg, ['search', 'load the settings file', '--repo', root, '-q', '--ranker', 'hand', '--json'], cacheDir);
    const paths = (out: string) => (JSON.parse(out) as { files: { path: string }[] }).files.map((f) => f.path).sort();
    expect(paths(learned.stdout)).toEqual(paths(hand.stdout));
  }, 120_000);
});
