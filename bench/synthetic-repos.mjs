// Small synthetic git repositories for the team benchmarks: 6 Python files
// each, with function names unique per repository (validate_<r>_<f>).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** git with a fixed identity; throws with git's stderr on failure. */
export function benchGit(cwd, ...args) {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Creates `count` repositories `syn-0` … under `dir` on branch main; returns their catalog entries. */
export function syntheticRepos(dir, count) {
  const repos = [];
  for (let r = 0; r < count; r++) {
    const path = join(dir, `syn-${r}`);
    mkdirSync(join(path, 'pkg'), { recursive: true });
    for (let f = 0; f < 6; f++) {
      writeFileSync(join(path, 'pkg', `m${f}.py`), `class Service${f}:\n    def handle_${f}(self, request):\n        return validate_${r}_${f}(request)\n\n\ndef validate_${r}_${f}(request):\n    """Validate request ${f} of repository ${r}."""\n    return bool(request)\n`);
    }
    benchGit(path, 'init', '-q', '-b', 'main');
    benchGit(path, 'add', '-A');
    benchGit(path, 'commit', '-q', '-m', 'init');
    repos.push({ name: `syn-${r}`, url: path, branch: 'main' });
  }
  return repos;
}
