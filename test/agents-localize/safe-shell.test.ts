import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitViewCache, openWorktreeView, SafeShell, type RepositoryView } from '../../src/sandbox/index.js';
import { createFixtureRepo, type FixtureRepo } from './agent-fixture.js';

describe('SafeShell on a materialised commit', () => {
  let repo: FixtureRepo;
  let cache: CommitViewCache;
  let view: RepositoryView;
  let shell: SafeShell;

  beforeAll(async () => {
    repo = createFixtureRepo();
    cache = new CommitViewCache({ tempRoot: repo.dir });
    view = await cache.acquire(repo.root, repo.first);
    shell = await SafeShell.create({ view, timeoutMs: 5000 });
  });
  afterAll(async () => {
    await shell.close();
    await cache.close();
    repo.cleanup();
  });

  it('materialises the commit read-only, without later files', () => {
    expect(view.kind).toBe('commit');
    expect(view.commit).toBe(repo.first);
    expect(readFileSync(join(view.root, 'shop/cart.py'), 'utf8')).toContain('class Cart');
    expect(existsSync(join(view.root, 'shop/coupons.py'))).toBe(false);
    expect(existsSync(join(view.root, '.git'))).toBe(false);
    expect(statSync(join(view.root, 'shop/cart.py')).mode & 0o222).toBe(0);
    expect(statSync(join(view.root, 'shop')).mode & 0o222).toBe(0);
  });

  it('runs read-only programs, pipelines and globs, and records files read', async () => {
    const cat = await shell.run("sed -n '5,6p' shop/cart.py");
    expect(cat.output).toBe('class Cart:\n    """A cart of items with an optional discount code."""');
    expect(cat.inspected).toEqual(['shop/cart.py']);
    const pipeline = await shell.run('grep -rn "def " shop | sort | head -n 2');
    expect(pipeline.refused).toBeNull();
    expect(pipeline.output.split('\n')).toHaveLength(2);
    const glob = await shell.run('wc -l shop/*.py');
    expect(glob.output).toContain('shop/pricing.py');
    expect(glob.output).toContain('total');
    const quoted = await shell.run("grep -c 'def ' 'shop/cart.py'");
    expect(quoted.output).toBe('4');
  });

  it('shows stderr and non-zero exit codes, and says when there is no output', async () => {
    const missing = await shell.run('cat nope.py');
    expect(missing.output).toMatch(/cat: nope.py: No such file or directory/);
    expect(missing.output).toContain('[exit code 1]');
    const none = await shell.run('grep -rn zzz_not_there .');
    expect(none.output).toBe('(no output)\n[exit code 1]');
    const quiet = await shell.run('cat nope.py 2>/dev/null');
    expect(quiet.output).toBe('(no output)\n[exit code 1]');
  });

  it('refuses anything that writes', async () => {
    for (const command of ['rm -rf shop', 'touch x', 'sed -i s/Cart/Kart/ shop/cart.py', 'sed -ni p shop/cart.py', 'find . -name "*.py" -delete', 'cat shop/cart.py > copy.py', 'cat shop/cart.py >> copy.py', 'sort -o out.txt README.md', "sed -n 'w out.txt' README.md", 'find . -exec rm {} ;', 'find . -fprint out.txt', 'uniq README.md out.txt', 'cp README.md x', 'mv README.md x', 'tee x']) {
      const result = await shell.run(command);
      expect(result.refused, command).not.toBeNull();
      expect(result.output, command).toMatch(/^Refused: .*Nothing was run\.$/s);
    }
    expect(readFileSync(join(view.root, 'shop/cart.py'), 'utf8')).toContain('class Cart');
    expect(existsSync(join(view.root, 'copy.py'))).toBe(false);
    expect(existsSync(join(view.root, 'out.txt'))).toBe(false);
  });

  it('refuses programs not on the allow-list and shell syntax it does not run', async () => {
    for (const command of ['python -c "print(1)"', 'curl http://example.com', 'bash -c ls', 'sh -c ls', '/bin/cat README.md', 'env', 'xargs cat', 'awk 1 README.md', 'git log']) {
      const result = await shell.run(command);
      expect(result.refused, command).toMatch(/not an allowed program|by name, not by path/);
    }
    for (const command of ['ls; cat README.md', 'ls && cat README.md', 'ls || true', 'cat $HOME/x', 'cat $(ls)', 'cat `ls`', 'ls &', '(ls)', 'cat < README.md']) {
      expect((await shell.run(command)).refused, command).not.toBeNull();
    }
  });

  it('refuses paths leaving the view', async () => {
    for (const command of ['cat ../../etc/passwd', 'cat /etc/passwd', 'ls ..', 'ls /', 'grep -r root /etc', 'find / -name passwd', 'head shop/../../x', 'find . -newer /etc/passwd', 'grep -f /etc/passwd README.md']) {
      const result = await shell.run(command);
      expect(result.refused, command).toMatch(/outside the repository|leads outside/);
    }
    // `..` that stays inside is fine.
    expect((await shell.run('cat shop/../README.md')).output).toContain('# shop');
  });

  it('cuts long output and says what was cut', async () => {
    const small = await SafeShell.create({ view, maxOutputChars: 50 });
    const result = await small.run('cat shop/cart.py');
    expect(result.truncated).toBe(true);
    expect(result.output).toMatch(/\[output cut: showing the first 50 of \d+ characters;/);
    expect(result.output.split('\n[output cut')[0]!.length).toBe(50);
  });

  it('shares one materialised view per commit and removes it when released', async () => {
    const again = await cache.acquire(repo.root, repo.first);
    expect(again.root).toBe(view.root);
    const other = await cache.acquire(repo.root, 'HEAD');
    expect(other.root).not.toBe(view.root);
    expect(existsSync(join(other.root, 'shop/coupons.py'))).toBe(true);
    await again.release();
    await other.release();
    expect(existsSync(view.root)).toBe(true); // still held by the suite's view
  });
});

describe('SafeShell limits and modes', () => {
  let repo: FixtureRepo;
  beforeAll(() => {
    repo = createFixtureRepo();
  });
  afterAll(() => repo.cleanup());

  it('kills a command past its time limit', async () => {
    // A FIFO with no writer blocks `cat` forever: only the time limit ends it.
    const fifo = join(repo.root, 'blocked.fifo');
    execFileSync('mkfifo', [fifo]);
    const shell = await SafeShell.create({ view: openWorktreeView(repo.root), timeoutMs: 300 });
    // Nothing but the time limit can end this command: that it returned, timed out, is the check.
    const result = await shell.run('cat blocked.fifo');
    expect(result.timedOut).toBe(true);
    expect(result.output).toContain('[timed out after 0.3 s: the command was killed]');
  });

  it('refuses symlink escapes and symlink-following options in a working tree', async () => {
    execFileSync('ln', ['-s', '/etc', join(repo.root, 'etc-link')]);
    const shell = await SafeShell.create({ view: openWorktreeView(repo.root) });
    expect((await shell.run('cat etc-link/hostname')).refused).toMatch(/symlink that leads outside/);
    expect((await shell.run('grep -R root .')).refused).toMatch(/follows symlinks/);
    expect((await shell.run('find -L . -name x')).refused).toMatch(/follows symlinks/);
    expect((await shell.run('grep -r Cart shop')).output).toContain('shop/cart.py');
  });

  it('runs anything with allowAnyCommand, in a scratch copy, killing the whole process group on timeout', async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
    const view = openWorktreeView(repo.root);
    const shell = await SafeShell.create({ view, allowAnyCommand: true, timeoutMs: 400, tempRoot: repo.dir, logger });
    expect(warnings.join('\n')).toMatch(/allowAnyCommand.*not sandboxed/s);
    const write = await shell.run('echo changed > README.md && cat README.md');
    expect(write.output).toBe('changed');
    expect(readFileSync(join(repo.root, 'README.md'), 'utf8')).toContain('# shop'); // the real tree is untouched
    // sleep (a child of bash) must die with the group: its pid, written before the wait, is gone afterwards.
    const pidFile = join(repo.dir, 'sleep.pid');
    const slow = await shell.run(`sleep 600 & echo $! > ${pidFile}; wait; echo never`);
    expect(slow.timedOut).toBe(true);
    expect(slow.output).not.toContain('never');
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(pid).toBeGreaterThan(0);
    // Killed by the group's SIGKILL; gone once reaped (its parent died with it too), awaited as an event.
    while (processExists(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
    await shell.close();
    expect(existsSync(shell.workingDirectory)).toBe(false);
  });

  it('does not pass the environment (API keys) to commands', async () => {
    process.env.REPONAV_TEST_SECRET = 'sk-secret';
    try {
      mkdirSync(join(repo.dir, 'envcheck'), { recursive: true });
      writeFileSync(join(repo.dir, 'envcheck', 'a.txt'), 'x\n');
      const shell = await SafeShell.create({ view: openWorktreeView(join(repo.dir, 'envcheck')), allowAnyCommand: true, tempRoot: repo.dir });
      expect((await shell.run('env')).output).not.toContain('sk-secret');
      await shell.close();
    } finally {
      delete process.env.REPONAV_TEST_SECRET;
    }
  });
});

/** Whether a process with this pid exists (a zombie not yet reaped counts as gone: it runs nothing). */
function processExists(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== undefined && state !== 'Z';
  } catch {
    return false;
  }
}
