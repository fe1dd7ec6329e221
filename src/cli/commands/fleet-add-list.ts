/**
 * What `fleet add` adds in one process: NAME URL pairs on the command line
 * and the lines of `--from FILE` (`NAME URL [BRANCH [GROUPS]]`, `#` comments
 * and blank lines ignored), with `--branch` and `--groups` as the default of
 * a line that leaves them out. Only the shape is checked here; the catalog's
 * rule for names, URLs, branches and groups is checked for every entry
 * before any is written (catalog.ts, addRepos).
 */
import { ReponavError } from '../../errors.js';
import { countOf } from '../../plural.js';

/** One repository to add, before the catalog's validation. */
export interface AddEntry {
  name: string;
  url: string;
  branch: string;
  groups: string[];
  /** Where it came from, for messages: `argument 3` or `repos.txt:12`. */
  origin: string;
}

/** Defaults from the command's options. */
export interface AddDefaults {
  branch: string;
  groups?: string[];
}

/**
 * The entries of `args` (NAME URL pairs) followed by those of `file` (its
 * name and text), in order. Throws BAD_INPUT (one sentence naming the argument
 * or line) for an odd argument count, a line with one or more than four
 * columns, an entry without groups (no column and no `--groups`), a name given
 * twice, or nothing to add.
 */
export function parseAddEntries(args: readonly string[], file: { name: string; text: string } | null, defaults: AddDefaults): AddEntry[] {
  if (args.length % 2 !== 0) {
    throw new ReponavError('BAD_INPUT', `fleet add takes NAME URL pairs; '${args[args.length - 1]}' (argument ${args.length}) has no URL after it.`);
  }
  const entries: AddEntry[] = [];
  for (let i = 0; i < args.length; i += 2) entries.push(entry(args[i], args[i + 1], undefined, undefined, `argument ${i + 1}`, defaults));
  if (file) {
    file.text.split(/\r?\n/).forEach((raw, index) => {
      const line = raw.replace(/(^|\s)#.*$/, '').trim();
      if (!line) return;
      const origin = `${file.name}:${index + 1}`;
      const columns = line.split(/\s+/);
      if (columns.length < 2 || columns.length > 4) {
        throw new ReponavError('BAD_INPUT', `Line ${origin} has ${countOf(columns.length, 'column')}; give NAME URL [BRANCH [GROUPS]] separated by spaces.`);
      }
      entries.push(entry(columns[0], columns[1], columns[2], columns[3], origin, defaults));
    });
  }
  if (entries.length === 0) throw new ReponavError('BAD_INPUT', 'Nothing to add: give NAME URL (pairs), or --from FILE with one NAME URL [BRANCH [GROUPS]] per line.');
  const seen = new Map<string, string>();
  for (const e of entries) {
    const first = seen.get(e.name);
    if (first !== undefined) throw new ReponavError('BAD_INPUT', `Repository '${e.name}' is given twice (${first} and ${e.origin}); give each name once.`);
    seen.set(e.name, e.origin);
  }
  return entries;
}

function entry(name: string, url: string, branch: string | undefined, groups: string | undefined, origin: string, defaults: AddDefaults): AddEntry {
  const groupList = groups === undefined ? defaults.groups : groups.split(',').map((g) => g.trim()).filter(Boolean);
  if (!groupList || groupList.length === 0) {
    throw new ReponavError('BAD_INPUT', `Repository '${name}' (${origin}) has no access groups; give --groups, or a GROUPS column on its line.`);
  }
  return { name, url, branch: branch ?? defaults.branch, groups: groupList, origin };
}
