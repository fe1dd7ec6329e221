/**
 * list_files, repo_map and the git tools through real MCP clients: the built
 * CLI over stdio (`reponav mcp --tools default,…`) and Streamable HTTP, on
 * the tools fixture with a fixed git history.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningHttpServer } from '../../src/mcp-server/http-server.js';
import { openMcpService, type McpService } from '../../src/mcp-server/mcp-service.js';
import { builtCliPath } from './built-cli.js';
import { makeGitHistory } from './git-fixture.js';
import { call, connectHttp, connectStdio, getDefaultEnvironment, type AnyClient, type ConnectedClient } from './mcp-client.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';

const GIT_TOOLS = ['changed_files', 'diff', 'file_history', 'blame_lines'];

async function exercise(client: AnyClient): Promise<void> {
  const names = (await client.listTools()).tools.map((t: { name: string }) => t.name);
  for (const name of ['list_files', 'repo_map', ...GIT_TOOLS]) expect(names).toContain(name);
  expect((await call(client, 'list_files', { path: 'shop' })).text).toContain('models.py  python');
  const map = await call(client, 'repo_map', { budget_tokens: 400 });
  expect(map.text).toMatch(/^\[MAP\] \S+: 10 files ranked by import\/call centrality/);
  expect((await call(client, 'changed_files', {})).text).toContain('unstaged   modified  shop/pricing.py  +round_cents');
  expect((await call(client, 'diff', { file: 'shop/models.py', from: 'HEAD~1', to: 'HEAD' })).text).toContain('changed symbols: ~Order ~Order.total +helper');
  expect((await call(client, 'file_history', { file: 'shop/models.py', symbol: 'Order.total' })).text).toContain('Round order totals');
  expect((await call(client, 'blame_lines', { file: 'shop/models.py', start: 37 })).text).toContain('Ada Lovelace: Round order totals');
  const strict = await call(client, 'list_files', { depht: 2 });
  expect(strict.isError).toBe(true);
  const outside = await call(client, 'diff', { file: '../../etc/passwd' });
  expect(outside.isError).toBe(true);
  expect(outside.text).toContain('outside the repository root');
}

describe('new tools over MCP', () => {
  let copy: FixtureCopy;
  beforeAll(() => {
    copy = copyFixture();
    makeGitHistory(copy.root);
  });
  afterAll(() => copy.cleanup());

  it('answer over stdio from the built CLI, opted in with --tools default,…', async () => {
    let connection: ConnectedClient | undefined;
    try {
      connection = await connectStdio('modern', {
        command: process.execPath,
        args: [builtCliPath(), 'mcp', '--repo', copy.root, '--tools', `default,${GIT_TOOLS.join(',')}`],
        env: { ...getDefaultEnvironment(), REPONAV_CACHE_DIR: join(copy.dir, 'cache') },
      });
      await exercise(connection.client);
    } finally {
      await connection?.close();
    }
  });

  it('answer over Streamable HTTP', async () => {
    let service: McpService | undefined;
    let http: RunningHttpServer | undefined;
    let connection: ConnectedClient | undefined;
    try {
      service = await openMcpService({ repositories: [{ path: copy.root, indexPath: join(copy.dir, 'http.db') }], tools: { include: ['default', ...GIT_TOOLS] } });
      const opened = service;
      http = await startHttpServer({ port: 0, host: '127.0.0.1', createSession: () => opened.createSession() });
      connection = await connectHttp(http.url, {}, { era: 'legacy' });
      await exercise(connection.client);
    } finally {
      await connection?.close();
      await http?.close();
      await service?.close();
    }
  });
});
