/**
 * The reply-style tables of the two agent docs, checked against what the
 * suite observed, golden-style: `UPDATE_GOLDEN=1` rewrites the text between
 * the markers, otherwise a difference fails with both tables shown.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { renderTable, stylesFor, tableMarkers, type Observation, type Surface } from './styles.js';

const DOCS: Array<{ file: string; name: string; surfaces: Surface[] }> = [
  { file: 'docs/localization-agent.md', name: 'localize', surfaces: ['localize', 'eval locbench --mode agent'] },
  { file: 'docs/question-answering.md', name: 'ask', surfaces: ['ask', 'eval sweqa'] },
];

const ROOT = join(import.meta.dirname, '..', '..');

/** Checks (or with UPDATE_GOLDEN=1 rewrites) both docs' tables. Fails when rows are missing (a filtered run cannot check them). */
export function checkDocTables(observations: readonly Observation[]): void {
  const surfaces = DOCS.flatMap((d) => d.surfaces);
  const expectedRows = (['openai', 'anthropic'] as const).reduce((n, provider) => n + surfaces.reduce((m, surface) => m + stylesFor(surface, provider).length, 0), 0);
  // A filtered run (vitest -t) has fewer rows and cannot check the tables.
  expect(observations.length, 'the tables need every row of the suite: run the whole file').toBe(expectedRows);
  for (const doc of DOCS) {
    const path = join(ROOT, doc.file);
    const text = readFileSync(path, 'utf8');
    const { start, end } = tableMarkers(doc.name);
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    expect(from >= 0 && to > from, `${doc.file} has the markers ${start} … ${end}`).toBe(true);
    const table = renderTable(observations, doc.surfaces);
    const current = text.slice(from + start.length, to).trim();
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, `${text.slice(0, from + start.length)}\n${table}\n${text.slice(to)}`);
    else expect(current, `${doc.file}: the reply-style table differs from what the suite observed (UPDATE_GOLDEN=1 rewrites it)`).toBe(table);
  }
}
