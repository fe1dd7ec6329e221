import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isReponavError } from '../errors.js';
import { parseLocbenchInstance, readLocbenchInstances } from './locbench-instances.js';

const good = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    instance_id: id,
    repo: 'owner/name',
    base_commit: 'a'.repeat(40),
    category: 'Bug Report',
    problem_statement: 'it breaks',
    patch: 'diff',
    edit_functions: ['a.py:f'],
    ...extra,
  });

describe('readLocbenchInstances', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'reponav-instances-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps valid lines in order and reports malformed ones with line numbers', async () => {
    const path = join(dir, 'i.jsonl');
    writeFileSync(
      path,
      [
        good('x-1'),
        '{not json',
        '',
        good('x-2', { repo: 'no-slash' }),
        JSON.stringify({ instance_id: 'x-3', repo: 'o/n' }),
        good('x-4', { extra_field: 1 }),
        good('x-1'),
        '[1,2]',
      ].join('\n') + '\n',
    );
    const { instances, malformed } = await readLocbenchInstances(path);
    expect(instances.map((i) => i.instance_id)).toEqual(['x-1', 'x-4']);
    expect(malformed.map((m) => m.lineNumber)).toEqual([2, 4, 5, 7, 8]);
    expect(malformed[0]!.reason).toMatch(/invalid JSON/);
    expect(malformed[1]).toMatchObject({ instanceId: 'x-2', reason: expect.stringMatching(/repo/) });
    expect(malformed[2]!.reason).toMatch(/base_commit/);
    expect(malformed[3]!.reason).toMatch(/duplicate/);
  });

  it('refuses an input with no readable instance, naming the first bad line (BAD_INPUT, exit 1)', async () => {
    const garbage = join(dir, 'garbage.jsonl');
    writeFileSync(garbage, ['', 'hello world', '{"instance_id": 3}', '[]'].join('\n') + '\n');
    const error = await readLocbenchInstances(garbage).catch((e: unknown) => e);
    expect(isReponavError(error, 'BAD_INPUT')).toBe(true);
    expect((error as Error).message).toMatch(/There is no readable LocBench instance in .*garbage\.jsonl: line 2: invalid JSON/);
    expect((error as Error).message).toMatch(/3 lines/);
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '\n\n');
    await expect(readLocbenchInstances(empty)).rejects.toThrow(/There is no readable LocBench instance in .*empty\.jsonl: it has no lines/);
  });

  it('defaults a missing category', () => {
    const parsed = parseLocbenchInstance(JSON.parse(good('y', { category: undefined })));
    expect(parsed.ok && parsed.instance.category).toBe('Uncategorized');
  });

  it('throws FILE_NOT_FOUND for a missing file', async () => {
    await expect(readLocbenchInstances(join(dir, 'nope.jsonl'))).rejects.toSatisfy((e) => isReponavError(e, 'FILE_NOT_FOUND'));
  });

  it('reads a split in the released LocBench format (a fixture written in its shape)', async () => {
    const { instances, malformed } = await readLocbenchInstances(fileURLToPath(new URL('./__fixtures__/locbench-sample.jsonl', import.meta.url)));
    expect(malformed).toEqual([]);
    expect(instances.map((i) => [i.instance_id, i.category, i.edit_functions.length])).toEqual([
      ['bookshop__bookshop-101', 'Bug Report', 1],
      ['bookshop__bookshop-102', 'Feature Request', 2],
      ['bookshop__bookshop-103', 'Performance Issue', 1],
    ]);
  });

  // The real development split is not in the repository; point REPONAV_LOCBENCH_DEV at it to check it too.
  const devSplit = process.env.REPONAV_LOCBENCH_DEV;
  it.skipIf(!devSplit)(
    devSplit ? `reads the development split at ${devSplit}` : 'reads the development split (skipped: REPONAV_LOCBENCH_DEV names no file)',
    async () => {
      const { instances, malformed } = await readLocbenchInstances(devSplit!);
      expect(instances.length).toBeGreaterThan(0);
      expect(malformed).toEqual([]);
    },
  );
});
