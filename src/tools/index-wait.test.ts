/**
 * The index wait (ToolContext.indexWaitMs) limits how long a call waits for
 * indexing, never for the check that finds nothing changed: over an index
 * that is current, no call answers "indexing", however short its wait. Tested
 * on a real index with seeded random runs of calls, waits and edits (the
 * failing seed is printed).
 */
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture, put } from '../../test/cli/harness.js';
import { holdRefresh } from '../../test/helpers/held-refresh.js';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { RepositorySet } from './repository-set.js';
import { callTool, createToolRegistry } from './tool-registry.js';

const CALLS: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['find_function', { name: 'reserve' }],
  ['find_class', { name: 'Inventory' }],
  ['search', { query: 'reserve stock copies' }],
  ['list_symbols', { file: 'inventory/stock.py' }],
];
const WAITS = [0, 0, 1, 3];
const SEEDS = 40;
const STEPS = 6;

let fixture: ReturnType<typeof copyIndexFixture>;
let repositories: RepositorySet;
beforeAll(async () => {
  fixture = copyIndexFixture();
  repositories = await RepositorySet.open([{ path: fixture.root, indexPath: join(fixture.dir, 'index', 'i.db') }]);
  await repositories.select().refresh();
});
afterAll(async () => {
  await repositories.close();
  cleanupTempDirs();
});

describe('the index wait', () => {
  it(`never answers "indexing" over a current index (${SEEDS} seeded runs of ${STEPS} steps: calls, waits of 0-3 ms, edits, new and deleted files)`, async () => {
    const registry = createToolRegistry();
    let edits = 0;
    const generated: string[] = [];
    for (let seed = 1; seed <= SEEDS; seed++) {
      const random = mulberry32(seed);
      for (let step = 0; step < STEPS; step++) {
        const roll = random();
        const edit = roll < 0.35;
        if (edit) {
          edits++;
          if (roll < 0.15) appendFileSync(join(fixture.root, 'inventory', 'stock.py'), `\n\ndef added_${edits}():\n    return ${edits}\n`);
          else if (roll < 0.25 || generated.length === 0) {
            generated.push(`gen/new_${edits}.py`);
            put(fixture.root, generated.at(-1)!, `def generated_${edits}():\n    return ${edits}\n`);
          } else rmSync(join(fixture.root, generated.splice(Math.floor(random() * generated.length), 1)[0]!));
        }
        const [tool, args] = CALLS[Math.floor(random() * CALLS.length)]!;
        const waitMs = WAITS[Math.floor(random() * WAITS.length)]!;
        const result = await callTool(registry, tool, args, { repositories, indexWaitMs: waitMs });
        const where = `seed ${seed}, step ${step}: ${tool} with a ${waitMs} ms wait${edit ? ' after an edit' : ''}`;
        expect(result.isError, where).toBe(false);
        // After an edit the call may stop waiting while the change is indexed; then the index is brought up to date.
        if (!edit) expect(result.text, where).not.toMatch(/^Indexing repository/);
        else await repositories.select().ensureFresh();
      }
    }
    expect(edits).toBeGreaterThan(10);
  });

  it('still answers "indexing" when the wait passes while the index is written', async () => {
    const held = holdRefresh(repositories.select().index);
    try {
      const result = await callTool(createToolRegistry(), 'find_function', { name: 'reserve' }, { repositories, indexWaitMs: 0 });
      expect(result.text).toMatch(/^Indexing repository 'shop'/);
      held.release();
      await repositories.select().ensureFresh();
    } finally {
      held.restore();
    }
  });
});
