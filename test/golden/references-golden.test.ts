/**
 * Golden snapshots of find_references over the fixture repositories in
 * test/fixtures/references/<language>/: each defines `helper` (a function) and,
 * where the language has methods, `Meter.tick`, and calls them plainly, through
 * `self`/`this`, through a variable declared as a Meter and through an untyped
 * receiver, beside comments and strings that mention them. The answers are
 * compared with test/golden/expected/references/<language>.txt.
 *
 * To accept new output after an intended change, run
 *   UPDATE_GOLDEN=1 npx vitest run test/golden
 * then review the diff of test/golden/expected/references/ by eye: the goldens are the spec.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LANGUAGES } from '../../src/parse/languages.js';
import { RepositorySet } from '../../src/tools/repository-set.js';
import { callTool, createToolRegistry } from '../../src/tools/tool-registry.js';
import { expectGolden } from './golden-file.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/references/', import.meta.url));
const EXPECTED = fileURLToPath(new URL('./expected/references/', import.meta.url));

/** The names asked about per fixture (Go and C# capitalize; C and shell have no methods). */
function namesFor(language: string): string[] {
  if (language === 'go' || language === 'csharp') return ['Helper', 'Meter.Tick'];
  if (language === 'c' || language === 'bash') return ['helper'];
  return ['helper', 'Meter.tick'];
}

async function renderFixture(language: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'reponav-refs-'));
  const root = join(dir, language);
  cpSync(join(FIXTURES, language), root, { recursive: true });
  const repositories = await RepositorySet.open([{ path: root, indexPath: join(dir, 'index.db') }]);
  try {
    await repositories.select().refresh();
    const registry = createToolRegistry();
    const sections: string[] = [];
    for (const name of namesFor(language)) {
      const result = await callTool(registry, 'find_references', { name }, { repositories });
      sections.push(`== find_references ${name}${result.isError ? ' (error)' : ''}\n${result.text}`);
    }
    return `${sections.join('\n\n')}\n`;
  } finally {
    await repositories.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const fixtures = readdirSync(FIXTURES).sort();

describe('find_references golden snapshots', () => {
  it('has a fixture per supported language', () => {
    expect(fixtures).toEqual([...SUPPORTED_LANGUAGES].sort());
  });

  for (const language of fixtures) {
    it(`matches expected/references/${language}.txt`, async () => {
      expectGolden(join(EXPECTED, `${language}.txt`), await renderFixture(language));
    });
  }
});
