/**
 * The first step of the commands that answer from a working tree's index
 * (the hot commands: search, symbols, find, view): start the freshness check's
 * `git status` (index/sources/git-worktree-status.ts) before the program's modules
 * load, so it runs alongside loading and opening the index instead of after
 * them (110-160 ms of a `search` on an 11k-file tree).
 *
 * The repository is read from the arguments the way commander will read
 * them (`--repo PATH` or `--repo=PATH`, default the current folder). A wrong
 * guess costs only a wasted `git status`: the result is kept by real root and
 * used only by a check of that same root, for which it is a true state of the
 * tree at this process's start.
 */
// eslint-disable-next-line entry-points/no-restricted-paths -- the one module needed before the index layer loads
import { GitWorktree } from '../../index/sources/git-worktree-status.js';
import { isHotCommand } from './hot-command-names.js';

/** Starts `git status` for the repository `argv` (process.argv) names, when its command will need it. */
export function startGitStatusEarly(argv: readonly string[]): void {
  // The hot commands: each starts with a freshness check of a working tree's index.
  if (!isHotCommand(argv)) return;
  let repo = '.';
  for (let i = 3; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    // Commit mode reads git objects, not the working tree.
    if (arg === '--commit' || arg.startsWith('--commit=')) return;
    if (arg === '--repo' && i + 1 < argv.length) repo = argv[++i];
    else if (arg.startsWith('--repo=')) repo = arg.slice('--repo='.length);
  }
  GitWorktree.startEarly(repo);
}
