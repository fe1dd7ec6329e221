/**
 * `reponav mcp --index-wait 0` over stdio, as an agent's client runs it: over
 * an index that is current, no call answers "Indexing repository …" (the wait
 * counts from when indexing starts, not from the freshness check; before, a
 * real client saw it for about one call in ten). An edit is then answered from
 * the index once indexed.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/harness.js';
import { builtCliPath } from './built-cli.js';
import { call, connectStdio, getDefaultEnvironment } from './mcp-client.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';

describe('reponav mcp --index-wait 0 (spawned built CLI, modern client)', () => {
  let copy: FixtureCopy;
  let connection: Awaited<ReturnType<typeof connectStdio>>;

  beforeAll(async () => {
    copy = copyFixture();
    const cacheDir = join(copy.dir, 'cache');
    expect(runCli(['index', copy.root, '-q'], { cacheDir }).code).toBe(0);
    connection = await connectStdio('modern', {
      command: process.execPath,
      args: [builtCliPath(), 'mcp', '--repo', copy.root, '--index-wait', '0'],
      env: { ...getDefaultEnvironment(), REPONAV_CACHE_DIR: cacheDir },
    });
  });
  afterAll(async () => {
    await connection?.close();
    copy?.cleanup();
  });

  it('never says "indexing" over a current index, in 30 calls', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 30; i++) answers.push((await call(connection.client, i % 2 ? 'find_function' : 'find_class', { name: i % 2 ? 'apply_tax' : 'ApiClient' })).text);
    expect(answers.filter((text) => text.startsWith('Indexing repository'))).toEqual([]);
    expect(answers[0]).toContain('ApiClient');
  });

  it('after an edit, answers from the index once the change is indexed', async () => {
    appendFileSync(join(copy.root, 'shop', 'pricing.py'), '\n\ndef loyalty_bonus(points):\n    return points * 0.01\n');
    let text = '';
    for (let i = 0; i < 200 && !text.includes('loyalty_bonus ('); i++) {
      text = (await call(connection.client, 'find_function', { name: 'loyalty_bonus' })).text;
      expect(text).toMatch(/^Indexing repository|loyalty_bonus \(/);
    }
    expect(text).toContain('shop/pricing.py');
  });
});
