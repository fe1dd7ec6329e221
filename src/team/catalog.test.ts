import { describe, expect, it } from 'vitest';
import { craftedNames, looksLikePath } from '../../test/helpers/crafted-names.js';
import { CatalogRepoSchema, isCatalogName } from './catalog.js';

describe('catalog names are logical names, never paths', () => {
  it('accepts plain and org/repo names', () => {
    for (const name of ['flask', 'acme/hooked', 'org/team/repo.v2', 'a', 'A1_b-c.d', 'srv/git/other-team.git']) expect(isCatalogName(name), name).toBe(true);
  });

  it('refuses the listed path forms', () => {
    for (const name of ['', '/', '/srv/git/x.git', '..', '.', 'a/..', '../a', 'a/./b', './a', 'a/', 'a//b', 'a\\b', '..\\a', '%2e%2e', 'a%2fb', '.hidden', '-flag', 'a b', 'a\0b', 'é', 'x'.repeat(201)]) {
      expect(isCatalogName(name), JSON.stringify(name)).toBe(false);
    }
  });

  it('refuses every generated name that holds a path piece, and accepts the rest (seeded)', () => {
    for (const seed of [1, 2, 3, 44, 2026]) {
      for (const name of craftedNames(seed, 400, ['/tmp/reponav/srv/git/other.git'])) {
        expect(isCatalogName(name), `seed ${seed}: ${JSON.stringify(name)}`).toBe(!looksLikePath(name) && name.length <= 200);
      }
    }
  });

  it('says why in the fleet add validation message', () => {
    const parsed = CatalogRepoSchema.safeParse({ name: '../beta', url: 'x', branch: 'main', groups: ['g'] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toMatch(/logical name, not a path/);
  });
});
