import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../test/helpers/mulberry32.js';
import { parseAddEntries, type AddEntry } from './fleet-add-list.js';

const SEED = Number(process.env.REPONAV_TEST_SEED ?? 4409);

describe('fleet add entries', () => {
  it('reads NAME URL pairs and file lines in order, with --branch and --groups as the defaults of what a line leaves out (generated)', () => {
    const random = mulberry32(SEED);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
    for (let round = 0; round < 300; round++) {
      const defaults = { branch: pick(['main', 'trunk']), groups: random() < 0.8 ? [pick(['a', 'b'])] : undefined };
      const want: Omit<AddEntry, 'origin'>[] = [];
      const args: string[] = [];
      const lines: string[] = [];
      const count = 1 + Math.floor(random() * 6);
      for (let i = 0; i < count; i++) {
        const name = `r${round}-${i}`;
        const url = pick([`/srv/git/${name}.git`, `https://example.com/acme/${name}.git`, `git@example.com:acme/${name}`]);
        const inFile = random() < 0.6;
        const columns = inFile ? 2 + Math.floor(random() * 3) : 2;
        const branch = columns >= 3 ? pick(['dev', 'release/1']) : defaults.branch;
        const groups = columns >= 4 ? ['x', 'y'].slice(0, 1 + Math.floor(random() * 2)) : defaults.groups;
        if (!groups) continue; // an entry without groups is an error, checked below
        if (inFile) {
          if (random() < 0.3) lines.push(pick(['', '   ', '# a comment', '\t# indented comment']));
          const text = [name, url, ...(columns >= 3 ? [branch] : []), ...(columns >= 4 ? [groups.join(',')] : [])].join(pick([' ', '  ', '\t']));
          lines.push(random() < 0.2 ? `${text}  # trailing comment` : text);
        } else args.push(name, url);
        want.push({ name, url, branch, groups });
      }
      if (want.length === 0) continue;
      const fromArgs = want.filter((w) => args.includes(w.name));
      const fromFile = want.filter((w) => !args.includes(w.name));
      const got = parseAddEntries(args, lines.length ? { name: 'repos.txt', text: lines.join(random() < 0.5 ? '\n' : '\r\n') } : null, defaults);
      expect(got.map(({ origin: _origin, ...rest }) => rest), `seed ${SEED}, round ${round}`).toEqual([...fromArgs, ...fromFile]);
      expect(got.every((e) => /^(argument \d+|repos\.txt:\d+)$/.test(e.origin)), `seed ${SEED}, round ${round}`).toBe(true);
    }
  });

  it('refuses in one sentence naming the argument or line: an odd pair, a bad column count, no groups, a name twice, nothing', () => {
    const d = { branch: 'main', groups: ['g'] };
    const refused = (args: string[], text: string | null, defaults: { branch: string; groups?: string[] } = d) => {
      try {
        parseAddEntries(args, text === null ? null : { name: 'list', text }, defaults);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused(['a', 'url-a', 'b'], null)).toBe("fleet add takes NAME URL pairs; 'b' (argument 3) has no URL after it.");
    expect(refused([], 'a url-a\nlonely\n')).toBe('Line list:2 has 1 column; give NAME URL [BRANCH [GROUPS]] separated by spaces.');
    expect(refused([], 'a url main g extra')).toBe('Line list:1 has 5 columns; give NAME URL [BRANCH [GROUPS]] separated by spaces.');
    expect(refused(['a', 'url-a'], null, { branch: 'main' })).toBe("Repository 'a' (argument 1) has no access groups; give --groups, or a GROUPS column on its line.");
    expect(refused(['a', 'url-a'], '# list\na other-url')).toBe("Repository 'a' is given twice (argument 1 and list:2); give each name once.");
    expect(refused([], '# only a comment\n')).toMatch(/^Nothing to add: /);
  });
});
