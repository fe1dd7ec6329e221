/**
 * Golden tests: every renderer on the two hand-built examples, compared with the
 * files in src/scaffold/__golden__/. To refresh after an intended change, run
 *   UPDATE_GOLDEN=1 npx vitest run src/scaffold
 * and review the diff of __golden__ by eye before committing; an update also
 * removes golden files that no test writes any more.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  fakeReadLines,
  pythonFiles,
  pythonResult,
  pythonSkeletonInput,
  typescriptFiles,
  typescriptResult,
  typescriptSkeletonInput,
} from './__fixtures__/scaffold-fixtures.js';
import { buildSkeletonJson, renderSkeleton } from './render-skeleton.js';
import { renderFileOnly } from './render-file-only.js';
import { renderInline } from './render-inline.js';
import { renderScaffoldJson } from './render-json.js';
import { renderScaffold } from './render-scaffold.js';
import { renderSnippets } from './render-snippet.js';
import { estimateTokens } from '../budget/token-budget.js';

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), '__golden__');

const examples = [
  { name: 'python', result: pythonResult, files: pythonFiles },
  { name: 'typescript', result: typescriptResult, files: typescriptFiles },
] as const;

/** Every golden file a test below writes: an update removes the others. */
const GOLDEN_FILES = new Set([
  ...examples.flatMap(({ name }) =>
    [
      'scaffold.txt',
      'scaffold-no-anchors.txt',
      'scaffold-no-glimpse.txt',
      'scaffold-no-targets.txt',
      'scaffold-no-cue.txt',
      'scaffold-budget-120.txt',
      'scaffold.json',
      'snippet.txt',
      'file-only.txt',
      'inline.txt',
    ].map((suffix) => `${name}.${suffix}`),
  ),
  'python.skeleton.txt',
  'python.skeleton.json',
  'typescript.skeleton.txt',
  'typescript.skeleton-budget-90.txt',
]);

function expectGolden(name: string, actual: string): void {
  expect(GOLDEN_FILES.has(name), `${name} is missing from GOLDEN_FILES`).toBe(true);
  const file = join(GOLDEN_DIR, name);
  const text = `${actual}\n`;
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    if (process.env.UPDATE_GOLDEN !== '1') throw new Error(`missing golden ${name}; run with UPDATE_GOLDEN=1`);
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, text);
    return;
  }
  expect(text).toBe(readFileSync(file, 'utf8'));
}

it(process.env.UPDATE_GOLDEN === '1' ? 'removes golden files no test writes' : 'has no golden file that no test writes', () => {
  const stale = existsSync(GOLDEN_DIR) ? readdirSync(GOLDEN_DIR).filter((file) => !file.endsWith('.md') && !GOLDEN_FILES.has(file)) : [];
  if (process.env.UPDATE_GOLDEN === '1') for (const file of stale) rmSync(join(GOLDEN_DIR, file));
  else expect(stale, 'golden files no test writes: run with UPDATE_GOLDEN=1 to remove them').toEqual([]);
});

describe.each(examples)('golden: $name example', ({ name, result, files }) => {
  it('scaffold', () => {
    const text = renderScaffold(result, files);
    expect(estimateTokens(text)).toBeLessThanOrEqual(1500);
    expectGolden(`${name}.scaffold.txt`, text);
  });

  it('scaffold ablations', () => {
    expectGolden(`${name}.scaffold-no-anchors.txt`, renderScaffold(result, files, { anchors: false }));
    expectGolden(`${name}.scaffold-no-glimpse.txt`, renderScaffold(result, files, { glimpse: false }));
    expectGolden(`${name}.scaffold-no-targets.txt`, renderScaffold(result, files, { targets: false }));
    expectGolden(`${name}.scaffold-no-cue.txt`, renderScaffold(result, files, { cue: false }));
  });

  it('scaffold under a tight budget', () => {
    const text = renderScaffold(result, files, { budgetTokens: 120 });
    expect(estimateTokens(text)).toBeLessThanOrEqual(120);
    expectGolden(`${name}.scaffold-budget-120.txt`, text);
  });

  it('json', () => {
    expectGolden(`${name}.scaffold.json`, JSON.stringify(renderScaffoldJson(result, files), null, 2));
  });

  it('snippet', () => {
    expectGolden(`${name}.snippet.txt`, renderSnippets(result, { readLines: fakeReadLines, maxLinesPerHit: 4 }));
  });

  it('file-only', () => {
    expectGolden(`${name}.file-only.txt`, renderFileOnly(result));
  });

  it('inline', () => {
    expectGolden(`${name}.inline.txt`, renderInline(result));
  });
});

describe('golden: skeletons', () => {
  it('python skeleton', () => {
    expectGolden('python.skeleton.txt', renderSkeleton(pythonSkeletonInput));
    expectGolden('python.skeleton.json', JSON.stringify(buildSkeletonJson(pythonSkeletonInput), null, 2));
  });

  it('typescript skeleton (partial parse)', () => {
    expectGolden('typescript.skeleton.txt', renderSkeleton(typescriptSkeletonInput));
  });

  it('typescript skeleton under a tight budget', () => {
    const text = renderSkeleton(typescriptSkeletonInput, { budgetTokens: 90 });
    expect(estimateTokens(text)).toBeLessThanOrEqual(90);
    expectGolden('typescript.skeleton-budget-90.txt', text);
  });
});
