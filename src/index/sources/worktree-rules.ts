/**
 * The rule state of one working tree: the default and option layers, the
 * ignore files read so far (kept while their text is unchanged), the files git
 * tracks, and the folders the index settings exclude; and from them, whether
 * the walk enters a folder and lists a file (see ignore-layers.ts for the
 * precedence, and WorktreeSource for the walk). Split from worktree-source.ts.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Ignore } from 'ignore';
import { FOLDER_IGNORE_FILES, ignoreFileName, newIgnore, sparesTracked, verdictOf, type IgnoreLayer, type RuleVerdict } from './ignore-layers.js';
import { defaultLayer, optionLayer } from './rule-options.js';
import { VCS_DIRECTORIES } from './source-file.js';
import { TrackedFiles } from './tracked-files.js';

/** Where an entry stands: its rule layers, and the verdict of a left-out folder above it (then only tracked files are listed). */
export interface Place {
  layers: IgnoreLayer[];
  outside: RuleVerdict | null;
}

/** The rules that decide what a working-tree listing holds. */
export class WorktreeRules {
  /** The default folder rules and the options' globs: the layers above every ignore file. */
  private readonly baseLayers: IgnoreLayer[];
  /** True when the options bring paths back (`--include`). */
  private readonly includes: boolean;
  /** Folders the index settings exclude: left out even when git tracks files in them. */
  readonly settingsExcluded: ReadonlySet<string>;
  readonly tracked: TrackedFiles;
  /**
   * Parsed ignore files by path, kept while their text is unchanged: the rule
   * objects memoize every path they have tested, so a refresh of an unchanged
   * tree answers its ignore checks from memory (half of a listing's time otherwise).
   */
  private readonly ignoreFiles = new Map<string, { text: string; rules: Ignore }>();

  constructor(
    private readonly root: string,
    options: { excludeDirectories?: string[]; include?: string[]; exclude?: string[] },
  ) {
    this.settingsExcluded = new Set(options.excludeDirectories ?? []);
    const option = optionLayer(options.include ?? [], options.exclude ?? []);
    this.baseLayers = [defaultLayer(), ...(option ? [option] : [])];
    this.includes = (options.include ?? []).some(Boolean);
    this.tracked = new TrackedFiles(root);
  }

  /**
   * The place inside the folder `name` at `path` (its own ignore files not yet
   * read), or null when the listing does not enter it: a folder the settings
   * exclude, one a rule of a source that spares nothing excludes, or one git's
   * rules or a default leave out that holds no tracked file.
   */
  enter(name: string, path: string, parent: Place): Place | null {
    if (this.settingsExcluded.has(name)) return null;
    const verdict = verdictOf(parent.layers, path, true);
    if (verdict?.excluded) {
      if (!sparesTracked(verdict.source) || !this.tracked.current().folders.has(path)) return null;
      return { layers: parent.layers, outside: parent.outside ?? verdict };
    }
    if (parent.outside && !this.tracked.current().folders.has(path)) return null;
    return parent;
  }

  /** The verdict that leaves out the file at `path` in `place`, or null when it is listed (as far as the rules go). */
  fileVerdict(path: string, place: Place): RuleVerdict | null {
    const verdict = verdictOf(place.layers, path, false);
    if (verdict?.excluded && !sparesTracked(verdict.source)) return verdict;
    const left = place.outside ?? (verdict?.excluded ? verdict : null);
    // Asked only of a file a rule would leave out: git's tracked set costs a stat of its index file per call.
    return left && !this.tracked.current().files.has(path) ? left : null;
  }

  /** `place` with the ignore files of the folder `dir` added. */
  withOwnRules(dir: string, place: Place): Place {
    const own: IgnoreLayer[] = [];
    for (const { name, source } of FOLDER_IGNORE_FILES) {
      const rules = this.readIgnoreFile(join(this.root, dir, name));
      if (rules) own.push({ base: dir, rules, file: ignoreFileName(dir, name), source });
    }
    return own.length ? { layers: [...place.layers, ...own], outside: place.outside } : place;
  }

  /**
   * True when a rule read so far may bring back files git ignores: an include
   * option, or a `!` line in a `.ignore`, `.rgignore` or `.reponavignore`
   * file. Git's status then cannot name every change (see WorktreeChanges).
   */
  bringsBackIgnored(): boolean {
    if (this.includes) return true;
    for (const [path, { text }] of this.ignoreFiles) {
      if (!path.endsWith('.gitignore') && !path.endsWith(`${sep}exclude`) && /^\s*!/m.test(text)) return true;
    }
    return false;
  }

  /** The ignore layers in force inside `dir` and the excluded folder it lies in, or null when the listing would not enter it. */
  placeOf(dir: string, cache: Map<string, Place | null>): Place | null {
    const known = cache.get(dir);
    if (known !== undefined) return known;
    let place: Place | null = null;
    if (dir === '') {
      place = { layers: this.rootLayers(), outside: null };
    } else {
      const slash = dir.lastIndexOf('/');
      const parent = this.placeOf(slash < 0 ? '' : dir.slice(0, slash), cache);
      const name = dir.slice(slash + 1);
      let isDirectory = false;
      try {
        isDirectory = lstatSync(join(this.root, dir)).isDirectory();
      } catch {
        isDirectory = false;
      }
      if (parent && isDirectory && !VCS_DIRECTORIES.has(name)) place = this.enter(name, dir, parent);
    }
    if (place) place = this.withOwnRules(dir, place);
    cache.set(dir, place);
    return place;
  }

  /** The layers at the root, below its own ignore files: the defaults, the options and `.git/info/exclude`, when present. */
  rootLayers(): IgnoreLayer[] {
    const exclude = this.readIgnoreFile(join(this.root, '.git', 'info', 'exclude'));
    return exclude ? [...this.baseLayers, { base: '', rules: exclude, file: '.git/info/exclude', source: 'git-exclude' }] : this.baseLayers;
  }

  /** The rules of an ignore file, or null when it is absent or unreadable. */
  private readIgnoreFile(path: string): Ignore | null {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      this.ignoreFiles.delete(path);
      return null;
    }
    const cached = this.ignoreFiles.get(path);
    if (cached && cached.text === text) return cached.rules;
    const rules = newIgnore().add(text);
    this.ignoreFiles.set(path, { text, rules });
    return rules;
  }
}
