/**
 * The README's shell examples on the bundled sample, run as printed (from the
 * clone's root, `reponav` = the built CLI, a fresh cache) and compared with the
 * output the README shows. The README writes `<clone>` for the clone's folder
 * and `<cache>` for REPONAV_CACHE_DIR; timings, the index's timestamp and the
 * path hash are compared as shapes, not values.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeBlocks, findBlock, PROJECT_ROOT, readDoc } from './readme.js';

const readme = readDoc();
const caches: string[] = [];

/** An empty cache folder, as a reader starts with. */
function freshCache(): string {
  caches.push(mkdtempSync(join(tmpdir(), 'reponav-readme-')));
  return caches.at(-1)!;
}

afterAll(() => {
  for (const cache of caches) rmSync(cache, { recursive: true, force: true });
});

/** Splits a shell transcript into `$ command` and the lines printed after it. */
function transcript(text: string): Array<{ command: string; output: string }> {
  const steps: Array<{ command: string; output: string[] }> = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
    else steps.at(-1)?.output.push(line);
  }
  return steps.map((s) => ({ command: s.command, output: s.output.join('\n').trimEnd() }));
}

/** Splits a command line into words, honouring double quotes (all the README uses). */
function words(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

/** Runs `reponav …` (or `node dist/cli/main.js …`) from the clone's root; stdout then stderr, placeholders put back. */
function run(command: string, cache: string): string {
  const [program, ...args] = words(command);
  const cliArgs = program === 'reponav' ? args : args.slice(1);
  expect(program === 'reponav' || (program === 'node' && args[0] === 'dist/cli/main.js'), command).toBe(true);
  const result = spawnSync(process.execPath, [join(PROJECT_ROOT, 'dist/cli/main.js'), ...cliArgs], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, REPONAV_CACHE_DIR: cache },
    encoding: 'utf8',
  });
  return `${result.stdout}${result.stderr}`.replaceAll(PROJECT_ROOT, '<clone>').replaceAll(cache, '<cache>').trimEnd();
}

/** What may differ between runs: durations, rates, the index time, the hash of the clone's path. */
function shape(text: string): string {
  return text
    .replace(/in \d+(\.\d+)? s\b/g, 'in <t> s')
    .replace(/\d+ files\/s/g, '<n> files/s')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
    .replace(/bookshop-[0-9a-f]{12}/g, 'bookshop-<hash>');
}

describe("the README's examples on the sample", () => {
  it('the first command prints the scaffold shown under it', () => {
    const command = findBlock(readme, 'Two commands', 'search').text.split('&&').at(-1)!.trim();
    const shown = codeBlocks(readme).filter((b) => b.heading === 'Two commands' && b.lang === '' && b.text.includes('[FILE]'));
    expect(shown).toHaveLength(1);
    expect(shape(run(command, freshCache()))).toBe(shape(shown[0].text.trimEnd()));
  });

  it('every `$ reponav` transcript under CLI prints what the README shows, in order', () => {
    const transcripts = codeBlocks(readme).filter((b) => b.heading === 'CLI' && b.lang === '' && b.text.startsWith('$ reponav'));
    expect(transcripts.length).toBeGreaterThanOrEqual(2);
    // The error examples come first in the README but need no index; run the indexing transcript first as a reader would.
    const ordered = [...transcripts].sort((a, b) => Number(b.text.includes('$ reponav index')) - Number(a.text.includes('$ reponav index')));
    const cache = freshCache();
    let steps = 0;
    for (const block of ordered) {
      for (const step of transcript(block.text)) {
        expect(shape(run(step.command, cache)), step.command).toBe(shape(step.output));
        steps++;
      }
    }
    expect(steps).toBeGreaterThanOrEqual(8);
  });
});

/** The project's Markdown documents a reader meets: README, CONTRIBUTING, CHANGELOG, bench/README and docs/. */
const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  'bench/README.md',
  ...readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('README and docs', () => {
  it('speak of the product, not of how the work on it was organised', () => {
    for (const file of DOCUMENTS) {
      const hits = readDoc(file)
        .split('\n')
        .filter((line) => /session[ -]?[0-9]/i.test(line));
      expect(hits, file).toEqual([]);
    }
  });

  it("print no one machine's paths (checkout, caches, mirrors, home folders)", () => {
    const files = DOCUMENTS;
    const machinePath = /\/work\/|\.\.\/shared\/|\/tmp\/(readme|ev-|rn-)|\/root\/|\/home\/[a-z]|\/Users\/[A-Za-z]/;
    for (const file of files) {
      const hits = readDoc(file)
        .split('\n')
        .filter((line) => machinePath.test(line));
      expect(hits, file).toEqual([]);
    }
  });
});
