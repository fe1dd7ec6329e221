import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from '../zod-mini.js';
import { ReponavError } from '../errors.js';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';
import { callTool, createToolRegistry } from './tool-registry.js';
import { TOOL_NAMES, type ToolDefinition } from './tool-types.js';

describe('createToolRegistry', () => {
  it('holds every built-in tool once, in listing order', () => {
    expect(createToolRegistry().list().map((t) => t.name)).toEqual([...TOOL_NAMES]);
  });

  it('can keep a subset and refuses unknown names', () => {
    expect(createToolRegistry({ include: ['view_code', 'snippet_search'] }).list().map((t) => t.name)).toEqual(['snippet_search', 'view_code']);
    expect(() => createToolRegistry({ include: ['nope'] })).toThrow("Unknown tool 'nope'.");
  });

  it('gives every tool a description, a title and an object schema', () => {
    for (const tool of createToolRegistry().list()) {
      expect(tool.description.length).toBeGreaterThan(80);
      expect(tool.title).toBeTruthy();
      expect(tool.inputSchema.safeParse({}).success || tool.inputSchema.safeParse({}).error!.issues.length > 0).toBe(true);
    }
  });
});

describe('callTool', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
  });
  afterAll(async () => h.close());

  it('answers an unknown tool with the list of tools', async () => {
    const r = await h.call('delete_repo', {});
    expect(r).toMatchObject({ isError: true, errorCode: 'UNKNOWN_TOOL' });
    expect(r.text).toContain('Available tools: search, snippet_search');
  });

  it('answers wrong argument types with the argument and the problem', async () => {
    const r = await h.call('view_code', { file: 'shop/models.py', start: 'ten' });
    expect(r).toMatchObject({ isError: true, errorCode: 'INVALID_ARGUMENTS' });
    expect(r.text).toMatch(/^Invalid arguments for view_code: start: .*expected number/);
    expect((await h.call('list_symbols', null)).text).toMatch(/file: /);
  });

  it('turns ReponavErrors into tool errors and other throws into an internal error, logging the stack', async () => {
    const logged: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (m: string) => logged.push(m) };
    const failing: ToolDefinition<{ how: string }, string> = {
      name: 'failing',
      title: 'Failing',
      description: 'fails',
      inputSchema: z.object({ how: z.string() }),
      defaultBudgetTokens: 100,
      run(args) {
        if (args.how === 'bad') throw new ReponavError('BAD_INPUT', 'That input is bad; try another.');
        throw new TypeError('boom');
      },
      render: (data) => data,
    };
    const registry = createToolRegistry({ tools: [failing] });
    const bad = await callTool(registry, 'failing', { how: 'bad' }, { repositories: h.repositories, logger });
    expect(bad).toEqual({ isError: true, text: 'That input is bad; try another.', errorCode: 'BAD_INPUT' });
    const boom = await callTool(registry, 'failing', { how: 'x' }, { repositories: h.repositories, logger });
    expect(boom).toMatchObject({ isError: true, errorCode: 'INTERNAL' });
    expect(boom.text).toContain('Internal error in failing: boom');
    expect(logged[0]).toContain('TypeError: boom');
  });

  it('enforces the budget even when a renderer overshoots', async () => {
    const chatty: ToolDefinition<object, string> = {
      name: 'chatty',
      title: 'Chatty',
      description: 'talks',
      inputSchema: z.object({ budget_tokens: z.optional(z.number()) }),
      defaultBudgetTokens: 100,
      run: () => 'word '.repeat(10_000),
      render: (data) => data,
    };
    const r = await callTool(createToolRegistry({ tools: [chatty] }), 'chatty', {}, { repositories: h.repositories });
    expect(r.text.length).toBeLessThanOrEqual(400);
    expect(r.text).toContain('[TRUNCATED]');
  });

  it('refreshes before answering, so an edit shows up in the next call', async () => {
    const path = join(h.copy.root, 'shop', 'pricing.py');
    appendFileSync(path, '\n\ndef loyalty_bonus(points: int) -> float:\n    return points * 0.01\n');
    const r = await h.call('find_function', { name: 'loyalty_bonus' });
    expect(r.text).toContain('shop/pricing.py:26-27 loyalty_bonus (function)');
    writeFileSync(join(h.copy.root, 'shop', 'extra.py'), 'def brand_new():\n    pass\n');
    expect((await h.call('list_symbols', { file: 'shop/extra.py' })).text).toContain('def brand_new() [L1-2]');
  });

  it('says "still indexing" instead of hanging when the wait limit passes', async () => {
    const repository = h.repositories.select();
    const original = repository.ensureFresh.bind(repository);
    repository.ensureFresh = async () => ({ state: 'indexing', progress: { done: 5, total: 50, elapsedMs: 10 } });
    try {
      const r = await h.call('search', { query: 'tax' }, { indexWaitMs: 1 });
      expect(r.isError).toBe(false);
      expect(r.text).toBe("Indexing repository 'tools-repo' (5 of 50 changed files so far); it continues in the background. Call search again in a little while.");
    } finally {
      repository.ensureFresh = original;
    }
  });
});
