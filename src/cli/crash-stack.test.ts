import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { sourceMappedStack } from './crash-stack.js';

describe('sourceMappedStack', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reponav-crash-stack-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('maps a bundled frame to its source line and leaves frames without a map as they are', async () => {
    const source = join(dir, 'src', 'boom.ts');
    mkdirSync(join(dir, 'src'));
    writeFileSync(source, "type T = string;\n\nexport function boom(): T {\n  throw new Error('boom');\n}\n");
    // The same options as scripts/bundle-cli.mjs: a linked map, no sources inside it.
    await build({ entryPoints: [source], outfile: join(dir, 'dist', 'boom.js'), bundle: true, format: 'esm', sourcemap: 'linked', sourcesContent: false, logLevel: 'silent' });
    // A plain node process, as the CLI runs (vitest applies source maps to its own stacks).
    const url = pathToFileURL(join(dir, 'dist', 'boom.js')).href;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', `try { (await import(${JSON.stringify(url)})).boom(); } catch (e) { console.log(e.stack); }`], { encoding: 'utf8' });
    const stack = run.stdout;
    expect(stack).toContain('boom.js:');
    const mapped = sourceMappedStack(stack);
    expect(mapped).toContain(`${source}:4:`);
    expect(mapped).not.toContain('boom.js:');
    const unmapped = `Error: x\n    at f (${pathToFileURL(join(dir, 'nomap.js')).href}:3:9)`;
    expect(sourceMappedStack(unmapped)).toBe(unmapped);
  });

  it('maps a frame of a CommonJS bundle (a plain path, as the hot commands run)', async () => {
    const source = join(dir, 'src', 'bang.ts');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(source, "type T = string;\n\nexport function bang(): T {\n  throw new Error('bang');\n}\n");
    await build({ entryPoints: [source], outfile: join(dir, 'dist', 'bang.cjs'), bundle: true, format: 'cjs', sourcemap: 'linked', sourcesContent: false, logLevel: 'silent' });
    const file = join(dir, 'dist', 'bang.cjs');
    const run = spawnSync(process.execPath, ['-e', `try { require(${JSON.stringify(file)}).bang(); } catch (e) { console.log(e.stack); }`], { encoding: 'utf8' });
    expect(run.stdout).toContain(`${file}:`);
    const mapped = sourceMappedStack(run.stdout);
    expect(mapped).toContain(`${source}:4:`);
    expect(mapped).not.toContain('bang.cjs:');
  });
});
