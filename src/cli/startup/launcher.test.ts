import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../test/cli/harness.js';
import { HOT_COMMAND_NAMES } from './hot-command-names.js';
import { HOT_COMMANDS } from './hot-commands.js';
import { launchHotCommand } from './launcher.js';

afterAll(cleanupTempDirs);
const savedCacheDir = process.env.REPONAV_CACHE_DIR;
afterEach(() => {
  process.env.REPONAV_CACHE_DIR = savedCacheDir;
  delete process.env.REPONAV_CODE_CACHE;
});

/** A dist/cli stand-in: main.js, and a hot-commands.cjs whose run() records its arguments. */
function distFolder() {
  const dir = tempDir('reponav-launcher-');
  const mainFile = join(dir, 'main.js');
  writeFileSync(mainFile, '');
  writeFileSync(join(dir, 'hot-commands.cjs'), 'exports.run = async (argv) => { globalThis.__hotRun = argv.slice(2); };\n');
  process.env.REPONAV_CACHE_DIR = join(dir, 'cache');
  return { dir, mainFile };
}

const ran = () => (globalThis as { __hotRun?: string[] }).__hotRun;
const argv = (...args: string[]) => ['node', 'main.js', ...args];

describe('launchHotCommand', () => {
  it('the bundle serves exactly the hot commands, each with its own code cache', async () => {
    expect(Object.keys(HOT_COMMANDS)).toEqual([...HOT_COMMAND_NAMES]);
    const { dir, mainFile } = distFolder();
    const before = process.listeners('exit');
    expect(await launchHotCommand(argv('view', 'a.py:1-3'), mainFile)).toBe(true);
    expect(ran()).toEqual(['view', 'a.py:1-3']);
    // The cache is written at exit (with everything the run compiled), into the cache folder.
    const cacheFile = join(dir, 'cache', 'code-cache', `view-node${process.versions.node}-${process.arch}.bin`);
    expect(existsSync(cacheFile)).toBe(false);
    for (const listener of process.listeners('exit').filter((l) => !before.includes(l))) {
      process.removeListener('exit', listener);
      (listener as (code: number) => void)(0);
    }
    expect(existsSync(cacheFile)).toBe(true);
  });

  it('leaves other commands, --embedder, REPONAV_CODE_CACHE=0, a missing or older bundle to the ES modules', async () => {
    const { dir, mainFile } = distFolder();
    (globalThis as { __hotRun?: string[] }).__hotRun = undefined;
    expect(await launchHotCommand(argv('index', '.'), mainFile)).toBe(false);
    expect(await launchHotCommand(argv('--help'), mainFile)).toBe(false);
    expect(await launchHotCommand(argv('search', 'q', '--embedder', 'local'), mainFile)).toBe(false);
    expect(await launchHotCommand(argv('search', 'q', '--embedder=openai'), mainFile)).toBe(false);
    process.env.REPONAV_CODE_CACHE = '0';
    expect(await launchHotCommand(argv('search', 'q'), mainFile)).toBe(false);
    delete process.env.REPONAV_CODE_CACHE;
    const later = new Date(Date.now() + 60_000);
    utimesSync(mainFile, later, later);
    expect(await launchHotCommand(argv('search', 'q'), mainFile)).toBe(false);
    expect(await launchHotCommand(argv('search', 'q'), join(dir, 'elsewhere', 'main.js'))).toBe(false);
    expect(ran()).toBeUndefined();
  });
});
