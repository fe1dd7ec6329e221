/**
 * The MCP server over Streamable HTTP with a real SDK client: tools, 50
 * concurrent calls, freshness between calls, re-indexing while serving, and
 * the access rules (bearer token, Origin, Host).
 */
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_OAUTH_MESSAGE, startHttpServer, type RunningHttpServer } from '../../src/mcp-server/http-server.js';
import { openMcpService, type McpService } from '../../src/mcp-server/mcp-service.js';
import { call, connectHttp, MODERN_PROTOCOL, type ConnectedClient, type Era, DEFAULT_MCP_TOOLS } from './mcp-client.js';
import { expectStrictArguments } from './strict-arguments.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';

const INIT_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw POST to the server (node:http, so Host can be set), answering status and body. */
function rawPost(port: number, path: string, headers: Record<string, string>, body = INIT_BODY): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.each<Era>(['modern', 'legacy'])('MCP over Streamable HTTP (%s client)', (era) => {
  let copy: FixtureCopy;
  let service: McpService;
  let http: RunningHttpServer;
  let connection: ConnectedClient;

  beforeAll(async () => {
    copy = copyFixture();
    service = await openMcpService({ repositories: [{ path: copy.root, indexPath: copy.indexPath }] });
    http = await startHttpServer({ port: 0, host: '127.0.0.1', createSession: () => service.createSession() });
    connection = await connectHttp(http.url, {}, { era });
  });
  afterAll(async () => {
    await connection.close();
    await http.close();
    await service.close();
    copy.cleanup();
  });

  it('listens on loopback at /mcp', () => {
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('lists tools and answers them', async () => {
    if (era === 'modern') expect(connection.protocolVersion).toBe(MODERN_PROTOCOL);
    const { tools } = await connection.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...DEFAULT_MCP_TOOLS]);
    expect((await call(connection.client, 'find_class', { name: 'PriceCalculator' })).text).toContain('shop/pricing.py:12-23 PriceCalculator (class)');
    expect((await call(connection.client, 'view_code', { symbol: 'round_money' })).text).toContain('9 |     return int(amount * 100 + 0.5) / 100');
  });

  it('refuses a misspelled argument naming the closest one, lists closed schemas, and takes numeric strings', async () => {
    await expectStrictArguments(connection.client);
  });

  it('sends no structuredContent and lists no outputSchema by default (clients would pass the JSON instead of the text)', async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.filter((t) => t.outputSchema).map((t) => t.name)).toEqual([]);
    const search = await call(connection.client, 'search', { query: 'order total tax' });
    expect(search.structured).toBeUndefined();
    expect(search.text).toContain('[FILE] shop/pricing.py');
  });

  it('with structured output: the envelope for search and list_symbols, text first, matching the advertised outputSchema', async () => {
    const structuredService = await openMcpService({ repositories: [{ path: copy.root, indexPath: copy.indexPath }], structured: true });
    const structuredHttp = await startHttpServer({ port: 0, host: '127.0.0.1', createSession: () => structuredService.createSession() });
    const structured = await connectHttp(structuredHttp.url, {}, { era });
    try {
      const { tools } = await structured.client.listTools();
      const withOutput = tools.filter((t) => t.outputSchema);
      expect(withOutput.map((t) => t.name)).toEqual(['search', 'list_symbols']);
      for (const tool of withOutput) {
        expect(Object.keys(tool.outputSchema.properties)[0]).toBe('text');
        // Portable: no type union with null anywhere in the listed schema.
        expect(JSON.stringify(tool.outputSchema)).not.toMatch(/"null"/);
      }
      // Both SDK clients validate structuredContent against the outputSchema; a mismatch would reject here.
      // A budget the whole answer fits in: text and data both (a tight one cuts data first; structured-output.test.ts).
      const search = await call(structured.client, 'search', { query: 'order total tax', budget_tokens: 8000 });
      expect(Object.keys(search.structured ?? {})[0]).toBe('text');
      expect(search.structured?.dataCut).toBeUndefined();
      expect(search.structured?.text).toBe(search.text);
      const scaffold = search.structured?.scaffold as { files: Array<{ path: string }> };
      expect(scaffold.files[0].path).toBe('shop/pricing.py');
      const skeleton = await call(structured.client, 'list_symbols', { file: 'shop/pricing.py' });
      expect(skeleton.structured).toMatchObject({ path: 'shop/pricing.py', language: 'python' });
      expect((skeleton.structured?.symbols as Array<{ qualifiedName: string }>).map((s) => s.qualifiedName)).toContain('PriceCalculator');
    } finally {
      await structured.close();
      await structuredHttp.close();
      await structuredService.close();
    }
  });

  it('answers 50 concurrent calls from several sessions', async () => {
    const others = await Promise.all([1, 2, 3, 4].map(() => connectHttp(http.url, {}, { era })));
    try {
      const clients = [connection, ...others].map((c) => c.client);
      const calls: Array<[string, Record<string, unknown>, string]> = [
        ['search', { query: 'order total tax' }, '[FILE] shop/pricing.py'],
        ['find_function', { name: 'checkout' }, 'Cart.checkout'],
        ['list_symbols', { file: 'internal/store/store.go' }, 'func NewStore() *Store'],
        ['find_code_snippet', { text: 'encodeURIComponent' }, 'web/src/api-client.ts:10'],
        ['view_code', { file: 'web/src/types.ts:15-18' }, 'export function isOrderRequest'],
      ];
      const results = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const [name, args, expected] = calls[i % calls.length];
          const r = await call(clients[i % clients.length], name, args);
          return { r, expected };
        }),
      );
      expect(results).toHaveLength(50);
      for (const { r, expected } of results) {
        expect(r.isError).toBe(false);
        expect(r.text).toContain(expected);
      }
    } finally {
      await Promise.all(others.map((c) => c.close()));
    }
    expect(http.inFlight()).toBe(0);
  });

  it('shows a file edited between two calls in the second answer', async () => {
    const before = await call(connection.client, 'find_function', { name: 'refund_order' });
    expect(before.text).toMatch(/^No function named 'refund_order'/);
    writeFileSync(join(copy.root, 'shop', 'refunds.py'), 'def refund_order(order_id: str) -> bool:\n    """Refunds an order."""\n    return True\n');
    const after = await call(connection.client, 'find_function', { name: 'refund_order' });
    expect(after.text).toContain('shop/refunds.py:1-3 refund_order (function)');
    writeFileSync(join(copy.root, 'shop', 'refunds.py'), '\n\ndef refund_order(order_id: str, reason: str) -> bool:\n    return False\n');
    const edited = await call(connection.client, 'view_code', { symbol: 'refund_order' });
    expect(edited.text.split('\n')).toEqual([
      '[FILE] shop/refunds.py (python, 4 lines) lines 3-4 — refund_order (function)',
      '3 | def refund_order(order_id: str, reason: str) -> bool:',
      '4 |     return False',
    ]);
  });

  it('keeps answering consistently while files change and reindex runs', async () => {
    const dir = join(copy.root, 'churn');
    mkdirSync(dir, { recursive: true });
    const writeAll = (version: number) => {
      for (let i = 0; i < 30; i++) writeFileSync(join(dir, `m${i}.py`), `MARK_${i} = ${version}\n\ndef v${version}_f${i}():\n    return ${version}\n`);
    };
    writeAll(0);
    for (let version = 1; version <= 6; version++) {
      const answers = await Promise.all([
        call(connection.client, 'find_code_snippet', { text: 'MARK_', file_pattern: 'churn/', limit: 1 }),
        call(connection.client, 'reindex', {}),
        (async () => {
          writeAll(version);
          return call(connection.client, 'list_symbols', { file: 'churn/m7.py' });
        })(),
        call(connection.client, 'search', { query: 'MARK churn' }),
      ]);
      for (const a of answers) expect(a.isError, a.text).toBe(false);
      expect(answers[0].text.split('\n')[0]).toBe('30 matches of "MARK_" in 30 files in files matching \'churn/\':');
      // The call made after the rewrite must see the new version.
      expect(answers[2].text).toContain(`def v${version}_f7() [L3-4]`);
    }
    const final = await call(connection.client, 'find_code_snippet', { text: 'MARK_', file_pattern: 'churn/', limit: 200, context_lines: 0 });
    expect(final.text.match(/= 6$/gm)).toHaveLength(30);
  });

  it('rejects foreign origins and hosts, and unknown paths, and keeps serving', async () => {
    const foreign = await rawPost(http.port, '/mcp', { origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.message).toContain("Origin 'http://evil.example' is not allowed");
    const rebound = await rawPost(http.port, '/mcp', { host: 'attacker.example:80' });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain('only answers requests addressed to localhost');
    const local = await rawPost(http.port, '/mcp', { origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
    expect((await rawPost(http.port, '/other', {})).status).toBe(404);
    // Stateless: a stale session id from an earlier server run is not an error.
    expect((await rawPost(http.port, '/mcp', { 'mcp-session-id': 'no-such-session' })).status).toBe(200);
    expect((await call(connection.client, 'find_class', { name: 'Cart' })).text).toContain('web/src/cart.ts:5-29 Cart (class)');
  });
});

describe('HTTP access rules', () => {
  let copy: FixtureCopy;
  let service: McpService;
  const token = 'test-token-0123456789abcdef';

  beforeAll(async () => {
    copy = copyFixture();
    service = await openMcpService({ repositories: [{ path: copy.root, indexPath: copy.indexPath }] });
  });
  afterAll(async () => {
    await service.close();
    copy.cleanup();
  });

  it('refuses to start on a non-loopback host without a token, or with a short one', async () => {
    await expect(startHttpServer({ port: 0, host: '0.0.0.0', createSession: () => service.createSession() })).rejects.toThrow(
      'Refusing to listen on 0.0.0.0 without a token',
    );
    await expect(startHttpServer({ port: 0, host: '0.0.0.0', token: 'short', createSession: () => service.createSession() })).rejects.toThrow(
      'The token must be at least 16 characters',
    );
  });

  it('answers OAuth discovery and registration 404 without a token, so clients fall back to the configured header', async () => {
    const http = await startHttpServer({ port: 0, host: '0.0.0.0', token, createSession: () => service.createSession() });
    try {
      for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/register']) {
        const answer = await fetch(`http://127.0.0.1:${http.port}${path}`, { method: path === '/register' ? 'POST' : 'GET' });
        expect(answer.status, path).toBe(404);
        expect(((await answer.json()) as { error: { message: string } }).error.message).toBe(NO_OAUTH_MESSAGE);
      }
      expect((await rawPost(http.port, '/mcp', {})).status).toBe(401);
    } finally {
      await http.close();
    }
  });

  it('requires the bearer token on a non-loopback host', async () => {
    const http = await startHttpServer({ port: 0, host: '0.0.0.0', token, createSession: () => service.createSession() });
    try {
      const none = await rawPost(http.port, '/mcp', {});
      expect(none.status).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer realm="reponav"');
      expect((await rawPost(http.port, '/mcp', { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
      const url = `http://127.0.0.1:${http.port}/mcp`;
      await expect(connectHttp(url)).rejects.toThrow();
      const client = await connectHttp(url, { Authorization: `Bearer ${token}` });
      try {
        expect((await call(client.client, 'find_function', { name: 'NewStore' })).text).toContain('NewStore (function)');
      } finally {
        await client.close();
      }
      // Origins must be listed explicitly when not bound to loopback.
      expect((await rawPost(http.port, '/mcp', { authorization: `Bearer ${token}`, origin: 'http://localhost:3000' })).status).toBe(403);
    } finally {
      await http.close();
    }
  });

  it('accepts an explicitly allowed origin, with CORS headers', async () => {
    const http = await startHttpServer({ port: 0, host: '127.0.0.1', allowedOrigins: ['https://app.example'], createSession: () => service.createSession() });
    try {
      const allowed = await rawPost(http.port, '/mcp', { origin: 'https://app.example' });
      expect(allowed.status).toBe(200);
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
      expect((await rawPost(http.port, '/mcp', { origin: 'https://other.example' })).status).toBe(403);
    } finally {
      await http.close();
    }
  });

  it('reports a port in use as one sentence', async () => {
    const first = await startHttpServer({ port: 0, host: '127.0.0.1', createSession: () => service.createSession() });
    try {
      await expect(startHttpServer({ port: first.port, host: '127.0.0.1', createSession: () => service.createSession() })).rejects.toThrow(
        `Cannot listen on 127.0.0.1:${first.port}: it is in use.`,
      );
    } finally {
      await first.close();
    }
  });
});
