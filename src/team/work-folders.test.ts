/**
 * Folder claims: a folder held by a running process is never taken (the next
 * one is), a claim whose process is gone (or whose pid now names another
 * process) is taken over, cleaning keeps the claim, and the worker's sweep
 * touches only the entries it creates, of repositories no longer listed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claimFolder, claimText, emptyClaimedFolder, releaseFolder, sweepRemoved, workEntryKey } from './work-folders.js';

const temp = mkdtempSync(join(tmpdir(), 'reponav-claims-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A pid no process has now: that of a process that has exited. */
function deadPid(): number {
  const result = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(result.stdout);
}

function folder(name: string, files: Record<string, string>): string {
  const dir = join(temp, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('claimFolder', () => {
  it('leaves a folder a running process holds, with everything in it, and takes the next one', () => {
    const held = claimText(process.ppid);
    const base = folder('held', { 'owner.pid': `${held}\n`, 'out/half.db': 'x', 'kept.db': 'y' });
    const claimed = claimFolder(base, ['out']);
    expect(claimed).toBe(`${base}-2`);
    expect(readFileSync(join(base, 'owner.pid'), 'utf8').trim()).toBe(held);
    expect(readdirSync(base).sort()).toEqual(['kept.db', 'out', 'owner.pid']);
    expect(readFileSync(join(claimed, 'owner.pid'), 'utf8').trim()).toBe(claimText());
  });

  it('takes over a claim whose process is gone, removing only the scratch folders', () => {
    const base = folder('stale', { 'owner.pid': `${deadPid()}\n`, 'out/half.db': 'x', 'git/shop.git/HEAD': 'ref', 'git/shop.git.clone-12/HEAD': 'ref' });
    expect(claimFolder(base, ['out'])).toBe(base);
    expect(readFileSync(join(base, 'owner.pid'), 'utf8').trim()).toBe(claimText());
    expect(existsSync(join(base, 'out'))).toBe(false);
    expect(readdirSync(join(base, 'git'))).toEqual(['shop.git']);
  });

  it.runIf(existsSync('/proc/self/stat'))('takes over a claim whose pid now names another process (a different start time)', () => {
    const base = folder('reused', { 'owner.pid': `${process.ppid} 1\n`, 'kept.db': 'y' });
    expect(claimFolder(base)).toBe(base);
    expect(readFileSync(join(base, 'kept.db'), 'utf8')).toBe('y');
  });

  it('is the same folder when claimed again by its owner; releaseFolder frees it only for its owner', () => {
    const base = join(temp, 'again');
    expect(claimFolder(base)).toBe(base);
    expect(claimFolder(base)).toBe(base);
    releaseFolder(base);
    expect(existsSync(join(base, 'owner.pid'))).toBe(false);
    writeFileSync(join(base, 'owner.pid'), `${claimText(process.ppid)}\n`);
    releaseFolder(base);
    expect(existsSync(join(base, 'owner.pid'))).toBe(true);
  });

  it('emptyClaimedFolder keeps the claim', () => {
    const base = join(temp, 'cache');
    claimFolder(base);
    writeFileSync(join(base, 'a.db'), 'x');
    mkdirSync(join(base, 'sub'));
    emptyClaimedFolder(base);
    expect(readdirSync(base)).toEqual(['owner.pid']);
  });
});

describe('sweepRemoved', () => {
  it('removes only what the worker created for repositories no longer listed; a listed repository keeps its lock, WAL and caches', () => {
    const names = {
      git: ['shop.git', 'acme+lib.git', 'gone.git', 'gone.git.clone-99', 'README'],
      index: ['shop.db', 'shop.db-wal', 'shop.db-shm', 'shop.db.lock', 'shop.db.lock-journal', 'shop.db.postings.cache', 'acme+lib.db', 'acme+lib.db.lock', 'gone.db', 'gone.db.lock', 'gone.db-wal', 'gone.db.vocab.tmp', 'notes.txt', 'shop.sqlite'],
    };
    const dir = join(temp, 'work');
    for (const [sub, list] of Object.entries(names)) for (const name of list) folder(join('work', sub), { [name]: 'x' });
    expect(sweepRemoved(dir, ['shop', 'acme/lib'])).toEqual(['gone']);
    expect(readdirSync(join(dir, 'git')).sort()).toEqual(['README', 'acme+lib.git', 'gone.git.clone-99', 'shop.git']);
    expect(readdirSync(join(dir, 'index')).sort()).toEqual(['acme+lib.db', 'acme+lib.db.lock', 'notes.txt', 'shop.db', 'shop.db-shm', 'shop.db-wal', 'shop.db.lock', 'shop.db.lock-journal', 'shop.db.postings.cache', 'shop.sqlite']);
    // A second sweep finds nothing more.
    expect(sweepRemoved(dir, ['shop', 'acme/lib'])).toEqual([]);
  });

  it('reads each entry name as the worker writes it', () => {
    expect(workEntryKey('index', 'a.db.db')).toBe('a.db');
    expect(workEntryKey('index', 'a.db.db.lock')).toBe('a.db');
    expect(workEntryKey('index', 'shop.db.lock')).toBe('shop');
    expect(workEntryKey('index', 'shop.txt')).toBeNull();
    expect(workEntryKey('git', 'org+x.git.clone-7')).toBe('org+x');
    expect(workEntryKey('git', 'x.gitx')).toBeNull();
  });
});
