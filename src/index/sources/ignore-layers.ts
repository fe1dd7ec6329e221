/**
 * The rules that decide whether a working-tree path is indexed, in layers as
 * ripgrep reads them: each folder's ignore files (`.gitignore`, `.ignore`,
 * `.rgignore`, and reponav's own `.reponavignore`), `.git/info/exclude`, the
 * default folder rules (`venv/`, `build/`, `node_modules/` …) and the
 * `--include` / `--exclude` globs stored with the index.
 *
 * Precedence, highest first (ripgrep's documented order, with reponav's own
 * layers at the ends): `--include`/`--exclude`, `.reponavignore`, `.rgignore`,
 * `.ignore`, `.gitignore`, `.git/info/exclude`, the defaults. The first source
 * whose rules match a path decides it; within one source the deepest folder's
 * file decides, and within one file the last matching line (a `!` line
 * re-includes). A folder that is left out is not entered, so a `!` rule brings
 * back a folder (`!venv/`), not one file inside a left-out folder (as in git).
 *
 * Used by worktree-source.ts, which adds the rule about tracked files: the
 * defaults, `.gitignore` and `.git/info/exclude` never leave out a file git
 * tracks; the other sources do (they are written for search tools).
 */
import { createRequire } from 'node:module';
import type { Ignore } from 'ignore';

/** Where a rule comes from. */
export type RuleSource = 'option' | 'reponavignore' | 'rgignore' | 'ignore' | 'gitignore' | 'git-exclude' | 'default';

/** The sources, highest precedence first. */
export const RULE_PRECEDENCE: readonly RuleSource[] = ['option', 'reponavignore', 'rgignore', 'ignore', 'gitignore', 'git-exclude', 'default'];

/** The ignore files read in every folder, and their source. */
export const FOLDER_IGNORE_FILES: readonly { name: string; source: RuleSource }[] = [
  { name: '.gitignore', source: 'gitignore' },
  { name: '.ignore', source: 'ignore' },
  { name: '.rgignore', source: 'rgignore' },
  { name: '.reponavignore', source: 'reponavignore' },
];

/** The rules of one ignore file (or of the defaults, or of the options) and where they apply. */
export interface IgnoreLayer {
  /** Folder the rules are relative to ('' for the root). */
  base: string;
  rules: Ignore;
  /** The ignore file, relative to the root, for messages ('' for the defaults and the options). */
  file: string;
  source: RuleSource;
}

/** What the rules say of one path: left out or brought back, and by which line. */
export interface RuleVerdict {
  excluded: boolean;
  source: RuleSource;
  /** The matching line as written (without the `!` of a negation). */
  pattern: string;
  /** The ignore file holding it ('' for the defaults and the options). */
  file: string;
}

/**
 * The ignore package, required on first use: a process whose freshness check
 * reads no ignore file (nothing changed, or git named no path) never loads it.
 */
let ignoreFactory: (() => Ignore) | undefined;

/** A fresh rule set of the ignore package. */
export function newIgnore(): Ignore {
  ignoreFactory ??= createRequire(import.meta.url)('ignore') as () => Ignore;
  return ignoreFactory();
}

/** The ignore package's own matcher of one path against its rules, parents not consulted. */
interface RuleManager {
  test(path: string, mode: 'regex'): { ignored: boolean; unignored: boolean; rule?: { pattern: string } };
}

type OwnMatch = { ignored: boolean; unignored: boolean; pattern: string | null };

/** Per rule set, the matches already computed: a refresh of an unchanged tree answers from memory. */
const matchCache = new WeakMap<Ignore, Map<string, OwnMatch>>();

/**
 * Whether the lines of `rules` match `path` itself (a folder ends in `/`),
 * as git and ripgrep test one walked entry. The package's public test() also
 * reports a path inside a matched folder as matched, which would let a
 * default `venv/` decide a file under a `venv/` folder that a higher layer
 * brought back; its rule manager tests the path alone. Fails closed if the
 * installed package no longer has it (a test pins the behaviour).
 */
function ownMatch(rules: Ignore, path: string): OwnMatch {
  let cache = matchCache.get(rules);
  if (!cache) matchCache.set(rules, (cache = new Map()));
  const known = cache.get(path);
  if (known) return known;
  const manager = (rules as unknown as { _rules?: RuleManager })._rules;
  if (typeof manager?.test !== 'function') throw new Error('the installed ignore package has no rule manager; reinstall reponav');
  const verdict = manager.test(path, 'regex');
  const match = { ignored: verdict.ignored, unignored: verdict.unignored, pattern: verdict.rule?.pattern.replace(/^!/, '') ?? null };
  cache.set(path, match);
  return match;
}

/**
 * What the layers say of `path` (a folder when `isDirectory`): the verdict
 * of the highest-precedence source with a matching line, or null when no
 * line matches (the path is indexed).
 */
export function verdictOf(layers: readonly IgnoreLayer[], path: string, isDirectory: boolean): RuleVerdict | null {
  for (const source of RULE_PRECEDENCE) {
    // Deepest first: a folder's file overrides its parents' files of the same kind.
    for (let i = layers.length - 1; i >= 0; i--) {
      const layer = layers[i];
      if (layer.source !== source) continue;
      if (layer.base && !path.startsWith(layer.base + '/')) continue;
      const rel = layer.base ? path.slice(layer.base.length + 1) : path;
      if (!rel) continue;
      const match = ownMatch(layer.rules, isDirectory ? rel + '/' : rel);
      if (match.ignored || match.unignored) return { excluded: match.ignored, source, pattern: match.pattern ?? '', file: layer.file };
    }
  }
  return null;
}

/** True for the sources that never leave out a file git tracks (git's own rules and the defaults). */
export function sparesTracked(source: RuleSource): boolean {
  switch (source) {
    case 'default':
    case 'gitignore':
    case 'git-exclude':
      return true;
    case 'ignore':
    case 'rgignore':
    case 'reponavignore':
    case 'option':
      return false;
  }
}

/** The skip reason a verdict's source gives: `vendored` (defaults), `ignored` (git's rules), `excluded` (the rest). */
export function skipReasonOf(source: RuleSource): 'vendored' | 'ignored' | 'excluded' {
  switch (source) {
    case 'default':
      return 'vendored';
    case 'gitignore':
    case 'git-exclude':
      return 'ignored';
    case 'ignore':
    case 'rgignore':
    case 'reponavignore':
    case 'option':
      return 'excluded';
  }
}

/** The rule as a message names it: "the default rule 'venv/'", "'*.log' in .gitignore", "--exclude 'docs/'". */
export function describeRule(verdict: RuleVerdict): string {
  switch (verdict.source) {
    case 'default':
      return `the default rule '${verdict.pattern}'`;
    case 'option':
      return `--exclude '${verdict.pattern}' (stored with the index)`;
    default:
      return `'${verdict.pattern}' in ${verdict.file}`;
  }
}

/** What to do to have a path a verdict leaves out indexed, as the end of a sentence. */
export function reincludeHint(verdict: RuleVerdict): string {
  switch (verdict.source) {
    case 'option':
      return `index again with --exclude given without '${verdict.pattern}' (--exclude '' clears the list) to index it`;
    case 'reponavignore':
    case 'rgignore':
    case 'ignore':
      return `remove '${verdict.pattern}' from ${verdict.file} to index it`;
    case 'gitignore': {
      // Beside the .gitignore, so that a pattern anchored to its folder means the same there.
      const dir = verdict.file.slice(0, verdict.file.lastIndexOf('/') + 1);
      return `add '!${verdict.pattern}' to ${dir}.reponavignore to index it`;
    }
    case 'git-exclude':
    case 'default':
      return `add '!${verdict.pattern}' to .reponavignore to index it`;
  }
}

/** The root-relative name of a folder's ignore file, for messages. */
export function ignoreFileName(dir: string, name = '.gitignore'): string {
  return dir ? `${dir}/${name}` : name;
}

/** True for a path (repository-relative) of an ignore file any folder may hold. */
export function isFolderIgnoreFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return FOLDER_IGNORE_FILES.some((file) => file.name === name);
}
