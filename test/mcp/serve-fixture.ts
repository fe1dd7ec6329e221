/**
 * Test support: one MCP server for a fixture copy over either transport: the
 * built CLI spawned over stdio (index in `<copy>/cache`), or the in-process
 * service over Streamable HTTP (index at `copy.indexPath`), with its warnings.
 */
import { join } from 'node:path';
import { startHttpServer } from '../../src/mcp-server/http-server.js';
import { openMcpService } from '../../src/mcp-server/mcp-service.js';
import { builtCliPath } from './built-cli.js';
import { connectHttp, connectStdio, getDefaultEnvironment, type ConnectedClient } from './mcp-client.js';
import type { FixtureCopy } from './fixture-repo.js';

/** How the test reaches the server. */
export type Transport = 'stdio' | 'http';

/** A client of a server for the copy, over `transport`; `close` stops everything. */
export async function serve(transport: Transport, copy: FixtureCopy): Promise<{ connection: ConnectedClient; stderr: () => string; close: () => Promise<void> }> {
  if (transport === 'stdio') {
    const connection = await connectStdio('modern', {
      command: process.execPath,
      args: [builtCliPath(), 'mcp', '--repo', copy.root],
      env: { ...getDefaultEnvironment(), REPONAV_CACHE_DIR: join(copy.dir, 'cache') },
    });
    return { connection, stderr: () => connection.stderr(), close: () => connection.close() };
  }
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) };
  const service = await openMcpService({ repositories: [{ path: copy.root, indexPath: copy.indexPath }], logger });
  const http = await startHttpServer({ port: 0, host: '127.0.0.1', createSession: () => service.createSession() });
  const connection = await connectHttp(http.url);
  return {
    connection,
    stderr: () => warnings.join('\n'),
    close: async () => {
      await connection.close();
      await http.close();
      await service.close();
    },
  };
}

