/**
 * The real thing: the built CLI spawned as `node dist/cli/main.js mcp --repo …`
 * and driven over stdio by the SDK client, as Claude Code or Cursor would.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/tools/tool-types.js';
import { builtCliPath } from './built-cli.js';
import { call } from './mcp-client.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';

describe('reponav mcp over stdio (spawned built CLI)', () => {
  let copy: FixtureCopy;
  let transport: StdioClientTransport;
  let client: Client;
  const transportErrors: Error[] = [];
  let stderr = '';

  beforeAll(async () => {
    const cli = builtCliPath();
    copy = copyFixture();
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', '--repo', copy.root],
      env: { ...getDefaultEnvironment(), REPONAV_CACHE_DIR: join(copy.dir, 'cache') },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk) => (stderr += String(chunk)));
    client = new Client({ name: 'reponav-stdio-test', version: '1.0.0' });
    client.onerror = (error) => transportErrors.push(error);
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    copy?.cleanup();
  });

  it('lists the tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
  });

  it('answers tool calls, indexing on first use', async () => {
    expect((await call(client, 'search', { query: 'apply tax to the order total' })).text).toContain('[FILE] shop/pricing.py');
    expect((await call(client, 'view_code', { symbol: 'Store.Put' })).text).toContain('30 | func (s *Store) Put(order Order) {');
    expect((await call(client, 'index_status', {})).text).toContain(`Repository 'tools-repo': `);
  });

  it('answers bad input as tool errors and keeps serving', async () => {
    const bad = await call(client, 'view_code', { file: '../../etc/passwd' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('is outside the repository root');
    expect((await call(client, 'find_class', { name: 'Cart' })).text).toContain('web/src/cart.ts:5-29 Cart (class)');
  });

  it('keeps stdout for the protocol only', () => {
    expect(transportErrors).toEqual([]);
    expect(stderr).not.toContain('Error');
  });
});

describe('reponav mcp --commit (a commit served without a checkout)', () => {
  it('answers about the commit, not the working tree, and refuses several --repo with --commit', async () => {
    const copy = copyFixture();
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', copy.root, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'first');
    const pricing = join(copy.root, 'shop', 'pricing.py');
    writeFileSync(pricing, readFileSync(pricing, 'utf8') + '\n\ndef added_after_first_commit():\n    return 1\n');
    git('commit', '-qam', 'second');
    const env = { ...getDefaultEnvironment(), REPONAV_CACHE_DIR: join(copy.dir, 'cache') };
    const transport = new StdioClientTransport({ command: process.execPath, args: [builtCliPath(), 'mcp', '--repo', copy.root, '--commit', 'HEAD~1', '-q'], env, stderr: 'pipe' });
    const client = new Client({ name: 'reponav-commit-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect((await call(client, 'find_function', { name: 'added_after_first_commit' })).text).toMatch(/No function/i);
      expect((await call(client, 'find_function', { name: 'apply_tax' })).text).toContain('shop/pricing.py');
      expect((await call(client, 'index_status', {})).text).toContain(git('rev-parse', 'HEAD~1').slice(0, 12));

      const refused = spawnSync(process.execPath, [builtCliPath(), 'mcp', '--repo', copy.root, '--repo', copy.root, '--commit', 'HEAD'], { env, encoding: 'utf8' });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/^error: --commit serves one repository, but 2 --repo paths were given/);
    } finally {
      await client.close();
      copy.cleanup();
    }
  });
});
