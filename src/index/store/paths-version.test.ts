/**
 * The paths version (IndexStore.pathsVersion) changes whenever the path list
 * does, whether the write runs in a transaction, nested ones, outside any, or
 * in one that fails and rolls back; and it stays the same over edits that keep
 * every path (what readers carry over an edit relies on both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFile } from '../write/analyze-file.js';
import { IndexStore } from './index-store.js';
import { mulberry32 } from '../../../test/helpers/mulberry32.js';

type Rows = Awaited<ReturnType<typeof analyzeFile>>;
const analysed = new Map<string, Rows>();

beforeAll(async () => {
  for (let i = 0; i < 6; i++) {
    for (const body of ['1', '2']) {
      const path = `pkg/m${i}.py`;
      analysed.set(`${path} ${body}`, await analyzeFile(path, new TextEncoder().encode(`def f${i}():\n    return ${body}\n`)));
    }
  }
});

describe('the paths version', () => {
  const stores: IndexStore[] = [];
  afterAll(() => stores.forEach((store) => store.close()));

  it('changes with every change of the path list and never over an edit alone (seeded random writes, transactions nested, failing, or none)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = mulberry32(seed);
      const store = IndexStore.open(':memory:');
      stores.push(store);
      const put = (i: number, body: '1' | '2') => {
        const { parse, rows } = analysed.get(`pkg/m${i}.py ${body}`)!;
        store.putBlob(`b${i}-${body}`, `def f${i}():\n    return ${body}\n`, parse);
        store.putFileRows({ path: `pkg/m${i}.py`, blobId: `b${i}-${body}`, size: 20, mtimeMs: null }, rows);
      };
      const paths = () => store.filePaths().join(',');
      let seen = { paths: paths(), version: store.pathsVersion() };
      for (let step = 0; step < 12; step++) {
        const ops = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({ file: Math.floor(random() * 6), roll: random() }));
        const apply = () => {
          for (const op of ops) {
            if (op.roll < 0.4) store.deleteFile(`pkg/m${op.file}.py`);
            else put(op.file, op.roll < 0.7 ? '1' : '2');
          }
        };
        const how = Math.floor(random() * 5);
        const where = `seed ${seed}, step ${step}, ${['no transaction', 'one transaction', 'nested', 'failing', 'a failing nested one inside'][how]}`;
        if (how === 0) apply();
        else if (how === 1) store.transaction(apply);
        else if (how === 2) store.transaction(() => store.transaction(apply));
        else if (how === 4) {
          // The outer transaction writes, a nested one writes and fails, the outer goes on: only the outer's writes stay.
          store.transaction(() => {
            apply();
            try {
              store.transaction(() => {
                put(Math.floor(random() * 6), '2');
                store.deleteFile(`pkg/m${Math.floor(random() * 6)}.py`);
                throw new Error('nested write failed');
              });
            } catch {
              // rolled back to the savepoint
            }
          });
        } else {
          expect(() =>
            store.transaction(() => {
              apply();
              throw new Error('write failed');
            }),
          ).toThrow('write failed');
        }
        // Edits alone: no op along the way added or removed a path (a removal and a re-adding may change the version).
        const present = new Set(seen.paths ? seen.paths.split(',') : []);
        const editsOnly = ops.every((op) => (op.roll < 0.4 ? !present.has(`pkg/m${op.file}.py`) : present.has(`pkg/m${op.file}.py`)));
        const now = { paths: paths(), version: store.pathsVersion() };
        if (now.paths !== seen.paths) expect(now.version, `${where}: the paths changed`).not.toBe(seen.version);
        else if (how < 3 && editsOnly) expect(now.version, `${where}: only edits`).toBe(seen.version);
        seen = now;
      }
    }
  });
});
