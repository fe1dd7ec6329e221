/**
 * Resource limits that must never lock a client out (#12 items 4 and 5):
 * HTTP clients that close without terminating their session, and a stdio
 * message larger than the transport's buffer.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningHttpServer } from '../../src/mcp-server/http-server.js';
import { openMcpService, type McpService } from '../../src/mcp-server/mcp-service.js';
import { builtCliPath } from './built-cli.js';
import { call, connectHttpLegacy } from './mcp-client.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';

describe('HTTP clients that close without ending their session', () => {
  let copy: FixtureCopy;
  let service: McpService;
  let http: RunningHttpServer;

  beforeAll(async () => {
    copy = copyFixture();
    service = await openMcpService({ repositories: [{ path: copy.root, indexPath: copy.indexPath }] });
    http = await startHttpServer({ port: 0, host: '127.0.0.1', createSession: () => service.createSession() });
  });
  afterAll(async () => {
    await http.close();
    await service.close();
    copy.cleanup();
  });

  it('still answers after 500 connect/close cycles', async () => {
    for (let i = 0; i < 500; i++) {
      const connection = await connectHttpLegacy(http.url, {}, { terminate: false });
      await connection.close();
    }
    const last = await connectHttpLegacy(http.url);
    try {
      const answer = await call(last.client, 'find_class', { name: 'Cart' });
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.text).toContain('web/src/cart.ts:5-29 Cart (class)');
    } finally {
      await last.close();
    }
  }, 120_000);
});

/** Spawns `reponav mcp` and talks raw newline-delimited JSON-RPC to it. */
function rawStdioServer(root: string, cacheDir: string) {
  const child = spawn(process.execPath, [builtCliPath(), 'mcp', '--repo', root, '-q'], {
    env: { ...process.env, REPONAV_CACHE_DIR: cacheDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // The server may close its stdin on a bug; the test then fails on the missing reply, not on EPIPE.
  child.stdin.on('error', () => undefined);
  let buffer = '';
  const waiting: Array<{ id: unknown; resolve: (message: any) => void }> = [];
  const received: any[] = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      received.push(message);
      const at = waiting.findIndex((w) => w.id === message.id);
      if (at !== -1) waiting.splice(at, 1)[0].resolve(message);
    }
  });
  let exit: number | null | undefined;
  child.on('exit', (code) => {
    exit = code;
    for (const w of waiting.splice(0)) w.resolve({ exited: code });
  });
  return {
    child,
    received,
    exitCode: () => exit,
    /** Writes `text` (one line, newline added) and waits for the reply with `id`. */
    send(text: string, id: unknown): Promise<any> {
      return new Promise((resolve) => {
        const already = received.find((m) => m.id === id);
        if (already) return resolve(already);
        if (exit !== undefined) return resolve({ exited: exit });
        waiting.push({ id, resolve });
        child.stdin.write(text + '\n');
      });
    },
  };
}

describe('stdio messages over the size limit', () => {
  it('answers an 11 MiB message with a JSON-RPC error and keeps serving', async () => {
    const copy = copyFixture();
    const server = rawStdioServer(copy.root, join(copy.dir, 'cache'));
    try {
      const init = await server.send(
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
        1,
      );
      expect(init.result?.serverInfo?.name).toBe('reponav');
      server.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
      const huge = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'x'.repeat(11 * 1024 * 1024) } } });
      const refused = await server.send(huge, 2);
      expect(refused.exited).toBeUndefined();
      expect(refused.error?.code).toBe(-32600);
      expect(refused.error?.message).toMatch(/larger than the 10 MiB limit/);
      const garbage = await server.send('{"jsonrpc":"2.0","id":', null);
      expect(garbage.error?.code).toBe(-32700);
      const after = await server.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'find_class', arguments: { name: 'Cart' } } }), 3);
      expect(after.result?.content?.[0]?.text).toContain('web/src/cart.ts:5-29 Cart (class)');
    } finally {
      server.child.kill();
      copy.cleanup();
    }
  }, 60_000);
});
