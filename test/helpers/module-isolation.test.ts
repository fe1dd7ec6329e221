import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './mulberry32.js';
import { needsOwnModules, OWN_MODULES_MARKER, replacesProcessEnv, testFilesNeedingOwnModules, testFilesWhere } from './module-isolation.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('needsOwnModules', () => {
  it('isolates every way vitest replaces a module, written any way, and nothing else', () => {
    const replacing = ['mock', 'doMock', 'unmock', 'doUnmock', 'resetModules'];
    const harmless = ['spyOn', 'fn', 'restoreAllMocks', 'useFakeTimers', 'hoisted', 'mocked', 'stubEnv'];
    const random = mulberry32(45);
    for (let seed = 0; seed < 200; seed++) {
      const replaces = random() < 0.5;
      const pool = replaces ? replacing : harmless;
      const name = pool[Math.floor(random() * pool.length)]!;
      const gap = [' ', '', '\n  '][Math.floor(random() * 3)]!;
      const source = `import { vi } from 'vitest';\nconst x = 1;\n${random() < 0.5 ? 'await ' : ''}vi${gap}.${gap}${name}${gap}('../a.js');\n`;
      expect(needsOwnModules(source), `seed ${seed}: ${JSON.stringify(source)}`).toBe(replaces);
    }
  });

  it('isolates a file that carries the marker, and not one that only names vi.mocked', () => {
    expect(needsOwnModules(`// ${OWN_MODULES_MARKER}: asserts the first load\n`)).toBe(true);
    expect(needsOwnModules('const spy = vi.mocked(fn);\n')).toBe(false);
  });

  it('finds the suite\'s files that replace modules (each is known to fail in a shared module graph)', () => {
    const found = testFilesNeedingOwnModules(ROOT, ['src', 'test']);
    for (const path of ['src/index/failed-retry.test.ts', 'src/retrieve/file-documents-update.test.ts', 'test/cli/failed-parse.test.ts', 'src/parse/grammar-loader.test.ts']) expect(found).toContain(path);
    expect(found).not.toContain('test/helpers/module-isolation.test.ts');
  });
});

describe('replacesProcessEnv', () => {
  it('finds an assignment of the object however it is spaced, and not a key set, a comparison or a copy', () => {
    const random = mulberry32(7);
    // Built from parts, so this file's own text holds no assignment for the rule below to find.
    const env = ['process', 'env'].join('.');
    const replacing = [`${env} = { ...saved }`, `${env}={}`, `${env.replace('.', ' .')}  =  saved`, `${env} =\n  copy`];
    const harmless = [`${env}.HOME = "/x"`, `${env} === saved`, `const copy = { ...${env} }`, `${env}['A'] = 'b'`, `delete ${env}.A`, `${env} == x`];
    for (let seed = 0; seed < 100; seed++) {
      const replaces = random() < 0.5;
      const pool = replaces ? replacing : harmless;
      const line = pool[Math.floor(random() * pool.length)]!;
      expect(replacesProcessEnv(`afterEach(() => {\n  ${line};\n});\n`), `seed ${seed}: ${line}`).toBe(replaces);
    }
  });

  it('no test file replaces process.env (restoreEnv keeps the object other files\' modules hold)', () => {
    expect(testFilesWhere(ROOT, ['src', 'test'], replacesProcessEnv)).toEqual([]);
  });
});
