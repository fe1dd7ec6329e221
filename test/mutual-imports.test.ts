import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, '..', 'scripts', 'check-mutual-imports.mjs');
const run = (root?: string) => spawnSync(process.execPath, root ? [script, root] : [script], { encoding: 'utf8' });
const temp = mkdtempSync(join(tmpdir(), 'reponav-mutual-imports-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('no two files import each other', () => {
  it('finds no pair in src/ (type imports included)', () => {
    const result = run();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('reports a type-only pair and ignores tests', () => {
    mkdirSync(join(temp, 'src', 'index'), { recursive: true });
    writeFileSync(join(temp, 'src', 'index', 'a.ts'), "import type { B } from './b.js';\nexport interface A { b: B }\n");
    writeFileSync(join(temp, 'src', 'index', 'b.ts'), "import { type A } from './a.js';\nexport interface B { a?: A }\n");
    writeFileSync(join(temp, 'src', 'index', 'c.ts'), 'export const c = 1;\n');
    writeFileSync(join(temp, 'src', 'index', 'c.test.ts'), "import { c } from './c.js';\nvoid c;\n");
    const result = run(temp);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('src/index/a.ts <-> src/index/b.ts');
    expect(result.stderr).not.toContain('c.ts');
  });
});
