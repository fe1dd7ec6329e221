/**
 * The real thing: the built CLI spawned as `node dist/cli/main.js mcp --repo …`
 * and driven over stdio by the SDK client, as Claude Code or Cursor would, in
 * both protocol eras: the 2.x client pinned to 2026-07-28 and the 1.x client
 * with the 2025 handshake.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCliPath } from './built-cli.js';
import { call, connectStdio, getDefaultEnvironment, MODERN_PROTOCOL, type ConnectedClient, type Era, DEFAULT_MCP_TOOLS } from './mcp-client.js';
import { expectStrictArguments } from './strict-arguments.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';

describe.each<Era>(['modern', 'legacy'])('reponav mcp over stdio (spawned built CLI, %s client)', (era) => {
  let copy: FixtureCopy;
  let connection: Awaited<ReturnType<typeof connectStdio>>;

  beforeAll(async () => {
    copy = copyFixture();
    connection = await connectStdio(era, {
      command: process.execPath,
      args: [builtCliPath(), 'mcp', '--repo', copy.root],
      env: { ...getDefaultEnvironment(), REPONAV_CACHE_DIR: join(copy.dir, 'cache') },
    });
  });
  afterAll(async () => {
    await connection?.close();
    copy?.cleanup();
  });

  it('negotiates the protocol era and lists the tools', async () => {
    if (era === 'modern') expect(connection.protocolVersion).toBe(MODERN_PROTOCOL);
    const { tools } = await connection.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...DEFAULT_MCP_TOOLS]);
  });

  it('answers tool calls, indexing on first use', async () => {
    const { client } = connection;
    expect((await call(client, 'search', { query: 'apply tax to the order total' })).text).toContain('[FILE] shop/pricing.py');
    expect((await call(client, 'view_code', { symbol: 'Store.Put' })).text).toContain('30 | func (s *Store) Put(order Order) {');
    expect((await call(client, 'index_status', {})).text).toContain(`Repository 'tools-repo': `);
    // The bundled CLI parses callers' files again for find_references (a lazily loaded parser entry).
    expect((await call(client, 'find_references', { name: 'send_receipt' })).text).toContain('shop/service.py:27 in OrderService.checkout [same file]');
  });

  it('refuses a misspelled argument naming the closest one, lists closed schemas, and takes numeric strings', async () => {
    await expectStrictArguments(connection.client);
  });

  it('answers bad input as tool errors and keeps serving', async () => {
    const { client } = connection;
    const bad = await call(client, 'view_code', { file: '../../etc/passwd' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('is outside the repository root');
    expect((await call(client, 'find_class', { name: 'Cart' })).text).toContain('web/src/cart.ts:5-29 Cart (class)');
  });

  it('keeps stdout for the protocol only', () => {
    expect(connection.errors).toEqual([]);
    expect(connection.stderr()).not.toContain('Error');
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
    let connection: ConnectedClient | undefined;
    try {
      connection = await connectStdio('modern', { command: process.execPath, args: [builtCliPath(), 'mcp', '--repo', copy.root, '--commit', 'HEAD~1', '-q'], env });
      const { client } = connection;
      expect((await call(client, 'find_function', { name: 'added_after_first_commit' })).text).toMatch(/No function/i);
      expect((await call(client, 'find_function', { name: 'apply_tax' })).text).toContain('shop/pricing.py');
      expect((await call(client, 'index_status', {})).text).toContain(git('rev-parse', 'HEAD~1').slice(0, 12));

      const refused = spawnSync(process.execPath, [builtCliPath(), 'mcp', '--repo', copy.root, '--repo', copy.root, '--commit', 'HEAD'], { env, encoding: 'utf8' });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/^error: --commit serves one repository, but 2 --repo paths were given/);
    } finally {
      await connection?.close();
      copy.cleanup();
    }
  });
});

describe('reponav mcp --tools / --exclude-tools', () => {
  it('offers the chosen subset, from flags or the environment, and refuses unknown names in one line', async () => {
    const copy = copyFixture();
    const env = { ...getDefaultEnvironment(), REPONAV_CACHE_DIR: join(copy.dir, 'cache') };
    const listed = async (args: string[], extraEnv: Record<string, string> = {}) => {
      const connection = await connectStdio('modern', { command: process.execPath, args: [builtCliPath(), 'mcp', '--repo', copy.root, '-q', ...args], env: { ...env, ...extraEnv } });
      try {
        return (await connection.client.listTools()).tools.map((t) => t.name);
      } finally {
        await connection.close();
      }
    };
    try {
      expect(await listed(['--tools', 'search,list_symbols,view_code'])).toEqual(['search', 'list_symbols', 'view_code']);
      expect(await listed(['--exclude-tools', 'reindex, index_status'])).toEqual(DEFAULT_MCP_TOOLS.filter((n) => n !== 'reindex' && n !== 'index_status'));
      expect(await listed([], { REPONAV_MCP_TOOLS: 'find_references,regex_search' })).toEqual(['find_references', 'regex_search']);
      const refused = spawnSync(process.execPath, [builtCliPath(), 'mcp', '--repo', copy.root, '--tools', 'search,grep'], { env, encoding: 'utf8' });
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(/^error: Unknown tool 'grep'; the tools are search, /);
      const none = spawnSync(process.execPath, [builtCliPath(), 'mcp', '--repo', copy.root, '--tools', 'search', '--exclude-tools', 'search'], { env, encoding: 'utf8' });
      expect(none.status).toBe(2);
      expect(none.stderr).toMatch(/^error: No tool is left to offer: --tools search with --exclude-tools search; /);
    } finally {
      copy.cleanup();
    }
  });
});
