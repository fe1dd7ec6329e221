/**
 * What readers carry across this connection's writes by re-reading only the
 * logged rows (the parsed files' states, the unparsed files' fingerprint) is
 * what a new connection reads from every row: over seeded random sequences of
 * edits, additions and removals of parsed and unparsed files, writes by another
 * connection, and transactions that fail.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFile } from '../write/analyze-file.js';
import { parsedFileStates } from '../queries/file-definitions.js';
import { unparsedFilesFingerprint } from './derived-cache.js';
import { IndexStore } from './index-store.js';
import { mulberry32 } from '../../../test/helpers/mulberry32.js';

const PATHS = ['pkg/a.py', 'pkg/b.py', 'pkg/c.py', 'pkg/d.py', 'docs/guide.md', 'docs/faq.md', 'notes.txt'];
const BODIES = ['1', '2', '3'];
const analysed = new Map<string, Awaited<ReturnType<typeof analyzeFile>>>();
const textOf = (path: string, body: string) => (path.endsWith('.py') ? `def f():\n    return ${body}\n` : `# Title\n\nbody ${body}\n`);
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reponav-file-row-log-'));
  for (const path of PATHS) for (const body of BODIES) analysed.set(`${path} ${body}`, await analyzeFile(path, new TextEncoder().encode(textOf(path, body))));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function put(store: IndexStore, path: string, body: string): void {
  const { parse, rows } = analysed.get(`${path} ${body}`)!;
  const blobId = `${path}-${body}`;
  store.putBlob(blobId, textOf(path, body), parse);
  store.putFileRows({ path, blobId, size: 20, mtimeMs: null }, rows);
}

describe('the files-row log', () => {
  it('lets readers carry the parsed file states and the unparsed fingerprint exactly (seeded random writes, another connection, failures)', () => {
    let carriedEdits = 0;
    for (let seed = 1; seed <= 25; seed++) {
      const random = mulberry32(seed);
      const pick = <T,>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
      const indexPath = join(dir, `index-${seed}.db`);
      const store = IndexStore.open(indexPath);
      const other = IndexStore.open(indexPath);
      try {
        store.transaction(() => PATHS.forEach((path) => put(store, path, '1')));
        for (let step = 0; step < 15; step++) {
          const before = parsedFileStates(store);
          unparsedFilesFingerprint(store);
          const roll = random();
          const path = pick(PATHS);
          let kind: string;
          if (roll < 0.45) {
            kind = `edit ${path}`;
            store.transaction(() => put(store, path, pick(BODIES)));
          } else if (roll < 0.6) {
            kind = `remove or add ${path}`;
            if (store.file(path)) store.deleteFile(path);
            else put(store, path, pick(BODIES));
          } else if (roll < 0.72) {
            kind = `another connection edits ${path}`;
            other.transaction(() => put(other, path, pick(BODIES)));
          } else if (roll < 0.86) {
            kind = `a failed transaction editing ${path}`;
            expect(() =>
              store.transaction(() => {
                put(store, path, pick(BODIES));
                throw new Error('failed');
              }),
            ).toThrow('failed');
          } else {
            kind = 'nothing';
          }
          const fresh = IndexStore.open(indexPath, undefined, { readonly: true });
          try {
            const where = `seed ${seed}, step ${step}: ${kind}`;
            const now = parsedFileStates(store);
            expect({ paths: [...now.paths], states: [...now.states] }, where).toEqual({ paths: [...parsedFileStates(fresh).paths], states: [...parsedFileStates(fresh).states] });
            expect(unparsedFilesFingerprint(store), where).toBe(unparsedFilesFingerprint(fresh));
            if (kind.startsWith('edit pkg/') && now.paths === before.paths) carriedEdits++;
          } finally {
            fresh.close();
          }
        }
      } finally {
        other.close();
        store.close();
      }
    }
    // The carry is exercised, not only the full reads: an own edit of a code file keeps the path list.
    expect(carriedEdits).toBeGreaterThan(20);
  });
});
