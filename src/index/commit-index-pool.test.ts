import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, commitAll, gitInit, put, tempDir } from '../../test/cli/harness.js';
import { CommitIndexPool, commitIndexFileName } from './commit-index-pool.js';

afterAll(cleanupTempDirs);

describe('commitIndexFileName', () => {
  it('keeps plain names readable and replaces every slash, not only the first', () => {
    expect(commitIndexFileName('pallets/flask')).toBe('pallets+flask.db');
    expect(commitIndexFileName('group/sub/project')).toBe('group+sub+project.db');
    expect(commitIndexFileName('pallets/flask', 1)).toBe('pallets+flask@2.db');
  });

  it('never gives two names one file, whatever their characters', () => {
    const names = ['a+b/c', 'a/b+c', 'a/b/c', 'a/b-2', 'a/b@2', 'a/b%2B', 'a/b c', 'A/b', 'a/b', 'ä/b', '../x', './x', '%', '+', '/'];
    const files = names.flatMap((name) => [0, 1, 2].map((slot) => commitIndexFileName(name, slot)));
    expect(new Set(files).size).toBe(files.length);
  });

  it('stays one file name inside the folder, short enough for any file system', () => {
    for (const name of ['../../etc/passwd', 'a\\b', 'a\0b', 'x'.repeat(1000), `${'y'.repeat(300)}/${'é'.repeat(200)}`]) {
      const file = commitIndexFileName(name, 3);
      expect(file).toMatch(/^[A-Za-z0-9._~%+@-]+\.db$/);
      expect(file).not.toContain('/');
      expect(Buffer.byteLength(file)).toBeLessThanOrEqual(200);
    }
    expect(commitIndexFileName('x'.repeat(1000))).not.toBe(commitIndexFileName(`${'x'.repeat(999)}y`));
    expect(() => commitIndexFileName('')).toThrow(/repository name/);
  });
});

describe('CommitIndexPool', () => {
  let repoA: string;
  let repoB: string;
  const commits: string[] = [];
  let commitB: string;

  beforeAll(() => {
    repoA = join(tempDir('reponav-pool-'), 'a');
    put(repoA, 'm.py', 'def one():\n    return 1\n');
    gitInit(repoA);
    commits.push(commitAll(repoA, 'one'));
    put(repoA, 'm.py', 'def one():\n    return 1\n\ndef two():\n    return 2\n');
    commits.push(commitAll(repoA, 'two'));
    put(repoA, 'n.py', 'def three():\n    return 3\n');
    commits.push(commitAll(repoA, 'three'));
    repoB = join(tempDir('reponav-pool-'), 'b');
    put(repoB, 'k.py', 'class K:\n    pass\n');
    gitInit(repoB);
    commitB = commitAll(repoB, 'b');
  });

  it('shares one index among leases at the same commit and names its files by the one rule', async () => {
    const indexDir = tempDir('reponav-pool-idx-');
    const pool = new CommitIndexPool({ indexDir, maxOpen: 2 });
    try {
      const [x, y] = await Promise.all([pool.acquire(repoA, 'acme/a', commits[0]), pool.acquire(repoA, 'acme/a', commits[0])]);
      expect(x.index).toBe(y.index);
      expect(pool.openCount).toBe(1);
      const z = await pool.acquire(repoA, 'acme/a', commits[1]); // another commit while the first is leased: a second slot
      expect(z.index).not.toBe(x.index);
      expect(z.index.store.files().map((f) => f.path)).toEqual(['m.py']);
      expect(readdirSync(indexDir).filter((f) => f.endsWith('.db')).sort()).toEqual(['acme+a.db', 'acme+a@2.db']);
      for (const lease of [x, y, z]) lease.release();
    } finally {
      await pool.close();
    }
  });

  it('never holds more than maxOpen indexes: a request waits for a release, then moves an idle index', async () => {
    const pool = new CommitIndexPool({ indexDir: tempDir('reponav-pool-idx-'), maxOpen: 2 });
    try {
      const first = await pool.acquire(repoA, 'acme/a', commits[0]);
      const second = await pool.acquire(repoA, 'acme/a', commits[1]);
      let thirdDone = false;
      const third = pool.acquire(repoA, 'acme/a', commits[2]).then((lease) => ((thirdDone = true), lease));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(thirdDone).toBe(false);
      expect(pool.openCount).toBe(2);
      first.release();
      const lease = await third;
      expect(lease.index).toBe(first.index); // moved to the third commit, not a third file
      expect(lease.index.store.files().map((f) => f.path).sort()).toEqual(['m.py', 'n.py']);
      expect(pool.openCount).toBe(2);
      second.release();
      lease.release();
    } finally {
      await pool.close();
    }
  });

  it('closes the least recently used idle index of another repository to stay within the bound', async () => {
    const pool = new CommitIndexPool({ indexDir: tempDir('reponav-pool-idx-'), maxOpen: 1 });
    try {
      const a = await pool.acquire(repoA, 'acme/a', commits[0]);
      a.release();
      const b = await pool.acquire(repoB, 'acme/b', commitB);
      expect(pool.openCount).toBe(1);
      expect(() => a.index.store.files()).toThrow(); // closed
      expect(b.index.store.files().map((f) => f.path)).toEqual(['k.py']);
      b.release();
    } finally {
      await pool.close();
    }
    expect(pool.openCount).toBe(0);
  });

  it('an unknown commit rejects and leaves no slot behind', async () => {
    const indexDir = tempDir('reponav-pool-idx-');
    const pool = new CommitIndexPool({ indexDir, maxOpen: 1 });
    try {
      await expect(pool.acquire(repoA, 'acme/a', 'deadbeef')).rejects.toThrow();
      expect(pool.openCount).toBe(0);
      const ok = await pool.acquire(repoA, 'acme/a', commits[0]);
      ok.release();
      expect(existsSync(join(indexDir, 'acme+a.db'))).toBe(true);
    } finally {
      await pool.close();
    }
  });
});
