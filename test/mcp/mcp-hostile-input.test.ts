/**
 * Hostile and broken input through a real MCP client: every case must come
 * back as an `isError` tool result with a clear message, and the server must
 * keep answering afterwards.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMcpService, type McpService } from '../../src/mcp-server/mcp-service.js';
import { call, connectInMemory, type ConnectedClient } from './mcp-client.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';

describe('hostile input', () => {
  let copy: FixtureCopy;
  let service: McpService;
  let connection: ConnectedClient;
  let outsideFile: string;

  beforeAll(async () => {
    copy = copyFixture();
    // A secret outside the repository, and symlinks inside the repository that lead to it.
    const outside = join(copy.dir, 'outside');
    mkdirSync(outside);
    outsideFile = join(outside, 'secret.py');
    writeFileSync(outsideFile, 'TOP_SECRET_MARKER = "do not leak"\n');
    symlinkSync(outsideFile, join(copy.root, 'shop', 'evil.py'));
    symlinkSync(outside, join(copy.root, 'linked'));
    service = await openMcpService({ repositories: [{ path: copy.root, indexPath: copy.indexPath }] });
    connection = await connectInMemory(service);
  });
  afterAll(async () => {
    await connection.close();
    await service.close();
    copy.cleanup();
  });

  /** Calls a tool expecting an error whose text matches `message`, then checks the server still answers. */
  async function expectToolError(name: string, args: Record<string, unknown>, message: RegExp | string): Promise<void> {
    const result = await call(connection.client, name, args);
    expect(result.isError, `${name} ${JSON.stringify(args).slice(0, 120)} → ${result.text}`).toBe(true);
    if (typeof message === 'string') expect(result.text).toContain(message);
    else expect(result.text).toMatch(message);
    expect(result.text).not.toContain('TOP_SECRET_MARKER');
    const alive = await call(connection.client, 'find_function', { name: 'Cart.checkout' });
    expect(alive.text).toContain('web/src/cart.ts:24-28 Cart.checkout (method)');
  }

  it('refuses path traversal', async () => {
    await expectToolError('view_code', { file: '../../etc/passwd' }, "Path '../../etc/passwd' is outside the repository root");
    await expectToolError('list_symbols', { file: 'shop/../../outside/secret.py' }, 'is outside the repository root');
    await expectToolError('view_code', { file: '..\\..\\etc\\passwd' }, 'is outside the repository root');
  });

  it('refuses absolute paths outside the root, accepts ones inside', async () => {
    await expectToolError('view_code', { file: '/etc/passwd' }, "Path '/etc/passwd' is outside the repository root");
    await expectToolError('list_symbols', { file: outsideFile }, 'is outside the repository root');
    const inside = await call(connection.client, 'list_symbols', { file: join(copy.root, 'shop', 'pricing.py') });
    expect(inside.text.split('\n')[0]).toBe('[FILE] shop/pricing.py (python, 23 lines)');
  });

  it('refuses symlinks that escape the root, and never indexes what they point to', async () => {
    await expectToolError('view_code', { file: 'shop/evil.py' }, 'is a symlink that leads outside the repository root');
    await expectToolError('view_code', { file: 'linked/secret.py' }, 'is a symlink that leads outside the repository root');
    await expectToolError('list_symbols', { file: 'linked/secret.py' }, 'symlink');
    const grep = await call(connection.client, 'find_code_snippet', { text: 'TOP_SECRET_MARKER' });
    expect(grep).toEqual({ isError: false, text: expect.stringMatching(/^No exact match for "TOP_SECRET_MARKER"\./) });
  });

  it('refuses NUL bytes and oversized paths', async () => {
    await expectToolError('view_code', { file: 'shop/models.py\0.txt' }, 'contains a NUL byte');
    await expectToolError('view_code', { file: 'a/'.repeat(3000) }, 'file is limited to 4096 characters');
  });

  it('refuses absurd spans and cuts oversize ones with a note', async () => {
    await expectToolError('view_code', { file: 'shop/models.py', start: 1e12 }, 'start must be at most 10000000');
    await expectToolError('view_code', { file: 'shop/models.py', start: -5 }, 'start must be at least 1');
    await expectToolError('view_code', { file: 'shop/models.py', start: 2.5 }, 'start must be a whole line number');
    await expectToolError('view_code', { file: 'shop/models.py', start: 60 }, 'start 60 is past the end of shop/models.py, which has 50 lines.');
    await expectToolError('view_code', { file: 'shop/models.py', start: 30, end: 10 }, 'end 10 is before start 30');
    const wide = await call(connection.client, 'view_code', { file: 'shop/models.py', start: 1, end: 9_999_999, budget_tokens: 150 });
    expect(wide.isError).toBe(false);
    expect(wide.text).toContain('(the file ends at line 50)');
    expect(wide.text).toMatch(/\[TRUNCATED\] lines \d+-50 left out to stay within 150 tokens; call view_code with start=\d+ to continue\.$/);
  });

  it('refuses oversized and treats pathological patterns as plain globs, quickly', async () => {
    await expectToolError('search', { query: 'order', file_pattern: 'a'.repeat(257) }, 'file_pattern is limited to 256 characters');
    await expectToolError('find_class', { name: 'Order', file_pattern: '*'.repeat(1000) }, 'file_pattern is limited to 256 characters');
    await expectToolError('find_code_snippet', { text: 'x'.repeat(2001) }, 'text is limited to 2000 characters');
    await expectToolError('search', { query: 'q'.repeat(200_001) }, 'query is limited to 200000 characters');
    // A pattern that backtracked without bound would not finish within the test's time limit; no clock is read here.
    // Many stars in one name would make the glob's regex backtrack: refused, naming the limit.
    await expectToolError('find_code_snippet', { text: 'order', file_pattern: '*a'.repeat(120) + 'b' }, 'the limit is 3 per segment');
    const nasty = ['**/'.repeat(80) + 'x', '?'.repeat(250), '[a-z]+(a+)+$', '*a*a*b/'.repeat(30)];
    for (const pattern of nasty) {
      const r = await call(connection.client, 'find_code_snippet', { text: 'order', file_pattern: pattern });
      expect(r.isError).toBe(false);
    }
    const regexLike = await call(connection.client, 'find_code_snippet', { text: '(a+)+$' });
    expect(regexLike.text).toMatch(/^No exact match/);
  });

  it('refuses wrong types and out-of-range numbers, naming the argument', async () => {
    // The SDK validates against the same zod schema first: "Invalid arguments for tool X: <problem> at <argument>".
    const argument = (name: string, problem: string) => new RegExp(`Invalid arguments for (tool )?\\w+: .*${problem}.* (at )?${name}|${name}: .*${problem}`);
    await expectToolError('find_class', { name: 123 }, argument('name', 'expected string'));
    await expectToolError('list_symbols', { file: ['shop/models.py'] }, argument('file', 'expected string'));
    await expectToolError('search', { query: null }, argument('query', 'expected string'));
    await expectToolError('search', {}, argument('query', 'expected string'));
    await expectToolError('snippet_search', { query: 'x', top_k: 'ten' }, argument('top_k', 'expected number'));
    await expectToolError('find_code_snippet', { text: 'x', limit: 1000 }, 'limit must be at most 200');
    await expectToolError('view_code', { file: 'shop/models.py', budget_tokens: -1 }, 'budget_tokens must be at least 100');
    await expectToolError('view_code', {}, 'give file (a path), symbol (a name), or both');
  });

  it('refuses unknown repositories and unknown tools', async () => {
    await expectToolError('search', { query: 'x', repo: 'other' }, "Unknown repo 'other'; use one of 'tools-repo'.");
    await expectToolError('search', { query: 'x', repo: '../..' }, "Unknown repo '../..'");
    // An unknown tool is a JSON-RPC error (-32602) in the SDK 2.x server, as the spec prescribes, not a tool result.
    await expect(connection.client.callTool({ name: 'drop_tables', arguments: {} })).rejects.toThrow('Tool drop_tables not found');
    expect((await call(connection.client, 'find_function', { name: 'Cart.checkout' })).text).toContain('web/src/cart.ts:24-28 Cart.checkout (method)');
  });

  it('reports a missing file with the closest indexed paths', async () => {
    await expectToolError('list_symbols', { file: 'shop/model.py' }, "'shop/model.py' is not an indexed file of");
  });
});
