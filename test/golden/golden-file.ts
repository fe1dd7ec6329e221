/**
 * Test support: compares a rendering with its golden file, or writes it when
 * UPDATE_GOLDEN=1 (then review the diff by eye: the goldens are the spec).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'vitest';

export function expectGolden(expectedPath: string, actual: string): void {
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(expectedPath), { recursive: true });
    writeFileSync(expectedPath, actual);
    return;
  }
  if (!existsSync(expectedPath)) throw new Error(`missing ${expectedPath}: run with UPDATE_GOLDEN=1 and review it`);
  expect(actual).toBe(readFileSync(expectedPath, 'utf8'));
}
