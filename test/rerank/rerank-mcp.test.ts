/**
 * `search` with `rerank` over stdio: the built CLI spawned as `reponav mcp
 * --rerank-model …`, driven by the SDK client, its model the scripted
 * endpoint. The argument is listed only when a rerank model is configured.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCliPath } from '../mcp/built-cli.js';
import { call, connectStdio, getDefaultEnvironment } from '../mcp/mcp-client.js';
import { copyFixture, type FixtureCopy } from '../mcp/fixture-repo.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../helpers/scripted-llm-server.js';
import { favouring } from './rerank-helpers.js';

const QUERY = 'The order total applies the discount after tax instead of before it';

describe('reponav mcp --rerank-model over stdio', () => {
  let copy: FixtureCopy;
  let server: ScriptedLlmServer;
  let connection: Awaited<ReturnType<typeof connectStdio>>;
  let plain: Awaited<ReturnType<typeof connectStdio>>;

  beforeAll(async () => {
    copy = copyFixture();
    server = await startScriptedLlmServer();
    const env = { ...getDefaultEnvironment(), REPONAV_CACHE_DIR: join(copy.dir, 'cache'), REPONAV_LLM_BASE_URL: server.openaiBaseUrl, REPONAV_LLM_API_KEY: 'test-key' };
    connection = await connectStdio('modern', {
      command: process.execPath,
      args: [builtCliPath(), 'mcp', '--repo', copy.root, '--rerank-model', 'openai-compatible:scripted-model', '--rerank-window', '4', '--rerank-step', '2', '--structured'],
      env,
    });
    plain = await connectStdio('modern', { command: process.execPath, args: [builtCliPath(), 'mcp', '--repo', copy.root], env });
  });
  afterAll(async () => {
    await connection?.close();
    await plain?.close();
    await server?.close();
    copy?.cleanup();
  });

  it('lists rerank on search only when a rerank model is configured', async () => {
    const withModel = (await connection.client.listTools()).tools.find((t) => t.name === 'search')!;
    expect(Object.keys((withModel.inputSchema as { properties: object }).properties)).toContain('rerank');
    const without = (await plain.client.listTools()).tools.find((t) => t.name === 'search')!;
    expect(Object.keys((without.inputSchema as { properties: object }).properties)).not.toContain('rerank');
    const refused = await call(plain.client, 'search', { query: QUERY, rerank: true });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/Unknown argument 'rerank'/);
  });

  it('reranks the top functions through the model and shows its order above the scaffold', async () => {
    server.setDefault(favouring('_apply_discount'));
    const before = server.requests.length;
    // A budget the data fits in whole (the structured envelope cuts data to the budget).
    const result = await call(connection.client, 'search', { query: QUERY, rerank: true, budget_tokens: 8000 });
    expect(result.isError, result.text).toBe(false);
    expect(server.requests.length - before).toBeGreaterThan(1);
    expect(result.text).toMatch(/^\[RERANKED\] top functions as openai-compatible:scripted-model ordered them \(\d+ candidates, \d+ model calls, \d+ tokens\):\n1\. shop\/models\.py:39-\d+ Order\._apply_discount/);
    expect(result.text).toContain('[FILE]');
    const structured = result.structured as { functions: Array<{ id: string }>; rerank: { calls: number; model: string } };
    expect(structured.functions[0]!.id).toBe('shop/models.py:Order._apply_discount');
    expect(structured.rerank).toMatchObject({ model: 'openai-compatible:scripted-model', calls: server.requests.length - before });
    // The envelope leaves null fields out (portable schemas): no fallback means the model's order was kept.
    expect(structured.rerank).not.toHaveProperty('fallback');
  });

  it('does not call the model without rerank: true', async () => {
    const before = server.requests.length;
    const result = await call(connection.client, 'search', { query: QUERY });
    expect(result.isError).toBe(false);
    expect(result.text).not.toContain('[RERANKED]');
    expect(server.requests.length).toBe(before);
  });

  it('answers an outage as a tool error and keeps serving', async () => {
    server.setDefault({ status: 500 });
    const failed = await call(connection.client, 'search', { query: QUERY, rerank: true });
    expect(failed.isError).toBe(true);
    expect(failed.text).toMatch(/Reranking with openai-compatible:scripted-model failed: .*HTTP 500/);
    expect((await call(connection.client, 'search', { query: QUERY })).isError).toBe(false);
  });
});
