import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../test/helpers/mulberry32.js';
import { namesDefinition } from '../ask/index.js';
import { checkAnswerAgainstRepository } from './answer-check.js';

/** What the index defines per file (qualified names); every file also calls names it does not define. */
const DEFINED: Record<string, string[]> = {
  'inventory/stock.py': ['Inventory', 'Inventory.find_by_isbn', 'Inventory.restock', 'load_stock'],
  'inventory/catalogue.py': ['Catalogue', 'Catalogue.find_by_isbn', 'Catalogue.add', 'Catalogue.Entry', 'Catalogue.Entry.price'],
  'inventory/util.py': ['find_by_isbn', 'slugify'],
};
/** Each file's text also mentions every other file's names (calls, imports), so a text check alone would keep them. */
const TEXT = Object.values(DEFINED).flat().join('\n');

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'reponav-answer-check-'));
  for (const path of [...Object.keys(DEFINED), 'docs/notes.txt']) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), TEXT);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const definedNames = (path: string) => new Set(DEFINED[path] ?? []);
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

describe('checkAnswerAgainstRepository: a name is kept only where the index defines it in that file', () => {
  it('drops a method named in a file that only calls it, defines it in another class, or at the top level', async () => {
    const answer = {
      files: ['inventory/stock.py'],
      modules: ['inventory/stock.py:Inventory', 'inventory/stock.py:find_by_isbn', 'inventory/stock.py:Catalogue', 'inventory/util.py:Catalogue'],
      functions: [
        'inventory/stock.py:Catalogue.find_by_isbn',
        'inventory/stock.py:Inventory.find_by_isbn',
        'inventory/util.py:Catalogue.find_by_isbn',
        'inventory/catalogue.py:Catalogue.find_by_isbn',
        'inventory/catalogue.py:Catalogue.add',
        'inventory/catalogue.py:price',
      ],
    };
    const checked = await checkAnswerAgainstRepository(answer, root, definedNames);
    expect(checked.answer.functions).toEqual(['inventory/stock.py:Inventory.find_by_isbn', 'inventory/catalogue.py:Catalogue.find_by_isbn', 'inventory/catalogue.py:Catalogue.add', 'inventory/catalogue.py:price']);
    expect(checked.answer.modules).toEqual(['inventory/stock.py:Inventory', 'inventory/stock.py:find_by_isbn']);
    expect(checked.dropped).toEqual(['inventory/stock.py:Catalogue.find_by_isbn', 'inventory/util.py:Catalogue.find_by_isbn', 'inventory/stock.py:Catalogue', 'inventory/util.py:Catalogue']);
  });

  it('a file the index parsed no symbols of falls back to the text', async () => {
    const checked = await checkAnswerAgainstRepository({ files: [], modules: [], functions: ['docs/notes.txt:slugify', 'docs/notes.txt:nowhere'] }, root, definedNames);
    expect(checked.answer.functions).toEqual(['docs/notes.txt:slugify']);
  });

  it('generated claims (seeded): kept exactly when the named file defines the name as written', async () => {
    const seed = 4142;
    const random = mulberry32(seed);
    const files = Object.keys(DEFINED);
    const everyName = [...new Set(Object.values(DEFINED).flat())];
    const owners = ['Inventory', 'Catalogue', 'Catalogue.Entry', 'Cart', ''];
    for (let i = 0; i < 300; i++) {
      const path = pick(random, files);
      const last = pick(random, everyName).split('.').pop()!;
      const owner = pick(random, owners);
      const claimed = owner ? `${owner}.${last}` : last;
      const entry = `${path}:${claimed}`;
      // The oracle: a qualified name of the file equal to the claim, or ending with it after a dot.
      const expected = DEFINED[path]!.some((q) => q === claimed || q.endsWith(`.${claimed}`));
      const checked = await checkAnswerAgainstRepository({ files: [], modules: [], functions: [entry] }, root, definedNames);
      expect(checked.answer.functions.length === 1, `seed ${seed}, case ${i}: ${entry}`).toBe(expected);
      expect(namesDefinition(claimed, new Set(DEFINED[path]))).toBe(expected);
    }
  });
});
