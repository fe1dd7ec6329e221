import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheDirectory, defaultIndexPath } from './cache-location.js';

const realPlatform = process.platform;
const saved = { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, LOCALAPPDATA: process.env.LOCALAPPDATA };

function onPlatform(platform: NodeJS.Platform): void {
  Object.defineProperty(process, 'platform', { value: platform, configurable: true });
}

afterEach(() => {
  onPlatform(realPlatform);
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('cacheDirectory', () => {
  it('prefers REPONAV_CACHE_DIR on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      onPlatform(platform);
      expect(cacheDirectory({ REPONAV_CACHE_DIR: '/custom/cache' })).toBe('/custom/cache');
    }
  });

  it('keeps the Linux default where earlier versions put it: $XDG_CACHE_HOME/reponav, else ~/.cache/reponav', () => {
    onPlatform('linux');
    process.env.XDG_CACHE_HOME = '/xdg/cache';
    expect(cacheDirectory({})).toBe('/xdg/cache/reponav');
    delete process.env.XDG_CACHE_HOME;
    expect(cacheDirectory({})).toBe(join(homedir(), '.cache', 'reponav'));
  });

  it("uses the platform's cache folder on macOS and Windows", () => {
    onPlatform('darwin');
    expect(cacheDirectory({})).toBe(join(homedir(), 'Library', 'Caches', 'reponav'));
    onPlatform('win32');
    process.env.LOCALAPPDATA = '/users/me/AppData/Local';
    expect(cacheDirectory({})).toBe(join('/users/me/AppData/Local', 'reponav', 'Cache'));
  });
});

describe('defaultIndexPath', () => {
  it('keys the index by repository name, a hash of its real path, and mode', () => {
    const env = { REPONAV_CACHE_DIR: '/c' };
    const worktree = defaultIndexPath('/home/me/src/flask', 'worktree', env);
    expect(worktree).toMatch(/^\/c\/flask-[0-9a-f]{12}\/worktree\.db$/);
    expect(defaultIndexPath('/home/me/src/flask', 'commit', env)).toBe(worktree.replace('worktree.db', 'commit.db'));
    expect(defaultIndexPath('/home/other/flask', 'worktree', env)).not.toBe(worktree);
    // A bare mirror's `<name>/repo` or `.git` folder is named after the repository.
    expect(defaultIndexPath('/mirrors/pallets+flask/repo', 'commit', env)).toMatch(/^\/c\/pallets_flask-[0-9a-f]{12}\/commit\.db$/);
  });
});
