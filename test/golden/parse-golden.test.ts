/**
 * Golden snapshots of the parse layer over the fixture repositories in
 * test/fixtures/languages/<name>/: every file is parsed (paths relative to that
 * folder), its imports are resolved against the folder's files, and the rendering is
 * compared with test/golden/expected/<name>.txt.
 *
 * To accept new output after an intended change, run
 *   UPDATE_GOLDEN=1 npx vitest run test/golden
 * then review the diff of test/golden/expected/ by eye: the goldens are the spec.
 * An update also removes expected files whose fixture folder is gone.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSource } from '../../src/parse/parse-source.js';
import { resolveImport } from '../../src/parse/resolve-imports.js';
import { renderParsed } from './render-parsed.js';
import { expectGolden } from './golden-file.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/languages/', import.meta.url));
const EXPECTED = fileURLToPath(new URL('./expected/', import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else out.push(full);
  }
  return out;
}

async function renderFixture(name: string): Promise<string> {
  const root = join(FIXTURES, name);
  const paths = listFiles(root)
    .map((file) => relative(root, file).split(sep).join('/'))
    .sort();
  const files = new Set(paths);
  const sections: string[] = [];
  for (const path of paths) {
    const parsed = await parseSource(path, readFileSync(join(root, path)));
    sections.push(renderParsed(parsed, (imp) => resolveImport(path, parsed.language, imp, files)));
  }
  return `${sections.join('\n\n')}\n`;
}

const fixtures = readdirSync(FIXTURES)
  .filter((name) => statSync(join(FIXTURES, name)).isDirectory())
  .sort();

describe('parse golden snapshots', () => {
  it('has a fixture per supported language plus mixed', async () => {
    const { SUPPORTED_LANGUAGES } = await import('../../src/parse/languages.js');
    expect(fixtures).toEqual([...SUPPORTED_LANGUAGES, 'mixed'].sort());
  });

  it(UPDATE ? 'removes expected files that no longer have a fixture' : 'has no expected file without a fixture', () => {
    const stale = existsSync(EXPECTED) ? readdirSync(EXPECTED).filter((file) => file.endsWith('.txt') && !fixtures.includes(file.slice(0, -'.txt'.length))) : [];
    if (UPDATE) for (const file of stale) rmSync(join(EXPECTED, file));
    else expect(stale, 'expected files without a fixture folder: run with UPDATE_GOLDEN=1 to remove them').toEqual([]);
  });

  for (const name of fixtures) {
    it(`matches expected/${name}.txt`, async () => {
      expectGolden(join(EXPECTED, `${name}.txt`), await renderFixture(name));
    });
  }
});
