/**
 * The MCP server through a real SDK client over an in-memory transport: tool
 * listing, every tool on the fixture, progress notifications, several
 * repositories in one server.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMcpService, type McpService } from '../../src/mcp-server/mcp-service.js';
import { call, connectInMemory, textOf, DEFAULT_MCP_TOOLS } from './mcp-client.js';
import { TOOL_NAMES } from '../../src/tools/tool-types.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';

describe('MCP server (in-memory transport, one repository)', () => {
  let copy: FixtureCopy;
  let service: McpService;
  let connection: Awaited<ReturnType<typeof connectInMemory>>;

  beforeAll(async () => {
    copy = copyFixture();
    service = await openMcpService({ repositories: [{ path: copy.root, indexPath: copy.indexPath }] });
    connection = await connectInMemory(service);
  });
  afterAll(async () => {
    await connection.close();
    await service.close();
    copy.cleanup();
  });

  it('reports indexing progress on the first call when the request has a progress token', async () => {
    const progress: Array<{ progress: number; total?: number }> = [];
    const result = await connection.client.callTool({ name: 'index_status', arguments: {} });
    expect(textOf(result)).toContain('Not indexed yet');
    const searched = await connection.client.callTool(
      { name: 'search', arguments: { query: 'tax' } },
      { onprogress: (p: { progress: number; total?: number }) => progress.push(p), resetTimeoutOnProgress: true },
    );
    expect(searched.isError).toBeFalsy();
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[progress.length - 1]).toMatchObject({ progress: 11, total: 11 });
  });

  it('lists every tool with a description and a JSON input schema', async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...DEFAULT_MCP_TOOLS]);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(tool.name !== 'reindex');
    }
    const view = tools.find((t) => t.name === 'view_code')!;
    // One repository: `repo` ("only when several are served") is not listed.
    expect(Object.keys(view.inputSchema.properties ?? {})).toEqual(['file', 'start', 'end', 'symbol', 'budget_tokens']);
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).not.toContain('repo');
    const find = tools.find((t) => t.name === 'find_function')!;
    expect(find.inputSchema.required).toEqual(['name']);
  });

  it('tells the client which repository it serves', () => {
    expect(connection.client.getInstructions()).toContain("This server navigates one repository, 'tools-repo'");
    expect(connection.client.getServerVersion()?.name).toBe('reponav');
  });

  it('answers every tool on the fixture', async () => {
    const c = connection.client;
    expect((await call(c, 'search', { query: 'apply tax to the order total' })).text).toContain('PriceCalculator.apply_tax [L22-23] (method)');
    expect((await call(c, 'snippet_search', { query: 'receipt', top_k: 1 })).text).toContain('def send_receipt(customer: str, amount: float) -> None:');
    expect((await call(c, 'find_references', { name: 'send_receipt' })).text).toContain('shop/service.py:27 in OrderService.checkout [same file]');
    expect((await call(c, 'regex_search', { pattern: 'ListenAndServe\\(' })).text).toContain('cmd/server/main.go\n  17: ');
    expect((await call(c, 'list_symbols', { file: 'web/src/api-client.ts' })).text).toContain('  async fetchOrder(customer: string): Promise<OrderRequest> [L9-14]');
    expect((await call(c, 'find_class', { name: 'ApiClient' })).text).toContain('web/src/api-client.ts:5-21 ApiClient (class)');
    expect((await call(c, 'find_function', { name: 'NewStore' })).text).toContain('internal/store/store.go:25-27 NewStore (function)');
    expect((await call(c, 'find_code_snippet', { text: 'http.ListenAndServe' })).text).toContain('cmd/server/main.go:17');
    expect((await call(c, 'view_code', { file: 'cmd/server/main.go', start: 12, end: 13 })).text).toBe(
      '[FILE] cmd/server/main.go (go, 29 lines) lines 12-13\n12 | func main() {\n13 | \torders := store.NewStore()',
    );
    expect((await call(c, 'index_status', {})).text).toContain('Fresh: the index matches the files on disk.');
    expect((await call(c, 'reindex', {})).text).toMatch(/^Re-indexed 'tools-repo' in \d+ ms: 11 files listed, 11 unchanged/);
  });

  it('passes per-call budgets through', async () => {
    const r = await call(connection.client, 'view_code', { file: 'shop/models.py', budget_tokens: 100 });
    expect(r.text.length).toBeLessThanOrEqual(400);
    expect(r.text).toContain('call view_code with start=');
  });
});

describe('MCP server tool selection', () => {
  it('offers semantic_search only with an embedder or when asked for, and honours include/exclude', async () => {
    const copy = copyFixture();
    const names = async (options: Parameters<typeof openMcpService>[0]) => {
      const service = await openMcpService(options);
      const connection = await connectInMemory(service);
      try {
        return (await connection.client.listTools()).tools.map((t) => t.name);
      } finally {
        await connection.close();
        await service.close();
      }
    };
    const repositories = [{ path: copy.root, indexPath: copy.indexPath }];
    try {
      expect(await names({ repositories })).not.toContain('semantic_search');
      const fuse = async () => [];
      expect(await names({ repositories, fuse })).toContain('semantic_search');
      expect(await names({ repositories, tools: { include: ['search', 'semantic_search', 'view_code'] } })).toEqual(['search', 'semantic_search', 'view_code']);
      expect(await names({ repositories, tools: { exclude: ['reindex', 'regex_search'] } })).toEqual(
        DEFAULT_MCP_TOOLS.filter((n) => n !== 'reindex' && n !== 'regex_search'),
      );
      expect(await names({ repositories })).not.toContain('changed_files');
      expect(await names({ repositories, tools: { include: ['default', 'changed_files', 'diff'] } })).toEqual(
        TOOL_NAMES.filter((n) => DEFAULT_MCP_TOOLS.includes(n) || n === 'changed_files' || n === 'diff'),
      );
      await expect(openMcpService({ repositories, tools: { include: ['serch'] } })).rejects.toThrow("Unknown tool 'serch'; the tools are search, ");
    } finally {
      copy.cleanup();
    }
  });
});

describe('MCP server (several repositories)', () => {
  const copies: FixtureCopy[] = [];
  let service: McpService;
  let connection: Awaited<ReturnType<typeof connectInMemory>>;

  beforeAll(async () => {
    copies.push(copyFixture(), copyFixture(), copyFixture('shopfront'));
    writeFileSync(join(copies[1].root, 'only_in_second.py'), 'def second_only():\n    return 2\n');
    service = await openMcpService({ repositories: copies.map((c) => ({ path: c.root, indexPath: c.indexPath })) });
    connection = await connectInMemory(service);
  });
  afterAll(async () => {
    await connection.close();
    await service.close();
    for (const c of copies) c.cleanup();
  });

  it('names repositories by folder, made unique', () => {
    expect(service.context.repositories.names()).toEqual(['tools-repo', 'tools-repo-2', 'shopfront']);
    expect(connection.client.getInstructions()).toContain('This server navigates 3 repositories: tools-repo, tools-repo-2, shopfront.');
  });

  it('lists repo on every tool when several are served', async () => {
    const { tools } = await connection.client.listTools();
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).toContain('repo');
  });

  it('needs repo when several are served, and routes by it', async () => {
    const missing = await call(connection.client, 'find_function', { name: 'second_only' });
    expect(missing).toEqual({ isError: true, text: "Several repositories are served; pass repo as one of 'tools-repo', 'tools-repo-2', 'shopfront'." });
    expect((await call(connection.client, 'find_function', { name: 'second_only', repo: 'tools-repo' })).text).toBe(
      "No function named 'second_only'.\nTry search with a description, or find_code_snippet with a piece of its code.",
    );
    expect((await call(connection.client, 'find_function', { name: 'second_only', repo: 'tools-repo-2' })).text).toContain('only_in_second.py:1-2 second_only');
    const unknown = await call(connection.client, 'search', { query: 'x', repo: 'nope' });
    expect(unknown).toEqual({ isError: true, text: "Unknown repo 'nope'; use one of 'tools-repo', 'tools-repo-2', 'shopfront'." });
    expect((await call(connection.client, 'index_status', { repo: 'shopfront' })).text).toContain(
      'Served repositories (pass as repo): tools-repo, tools-repo-2, shopfront',
    );
  });

  it('index_status without repo lists every served repository instead of asking for one', async () => {
    const all = await call(connection.client, 'index_status', {});
    expect(all.isError).toBe(false);
    const lines = all.text.split('\n');
    expect(lines[0]).toBe('Served repositories (pass as repo): tools-repo, tools-repo-2, shopfront');
    expect(lines.filter((l) => l.startsWith('Repository ')).map((l) => l.split(':')[0])).toEqual([
      "Repository 'tools-repo'",
      "Repository 'tools-repo-2'",
      "Repository 'shopfront'",
    ]);
  });
});

describe('MCP server progress on a larger repository', () => {
  it('sends increasing progress notifications while indexing', async () => {
    const copy = copyFixture();
    mkdirSync(join(copy.root, 'generated'));
    for (let i = 0; i < 260; i++) {
      writeFileSync(join(copy.root, 'generated', `module_${i}.py`), `class Model${i}:\n    def value(self):\n        return ${i}\n`);
    }
    const service = await openMcpService({ repositories: [{ path: copy.root, indexPath: copy.indexPath }] });
    const connection = await connectInMemory(service);
    try {
      const progress: number[] = [];
      const result = await connection.client.callTool({ name: 'find_class', arguments: { name: 'Model42' } }, {
        onprogress: (p: { progress: number }) => progress.push(p.progress),
      });
      expect(textOf(result)).toContain('generated/module_42.py:1-3 Model42 (class)');
      expect(progress.length).toBeGreaterThanOrEqual(1);
      expect(progress[progress.length - 1]).toBe(271);
      for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]);
    } finally {
      await connection.close();
      await service.close();
      copy.cleanup();
    }
  });
});
