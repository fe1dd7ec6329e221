/**
 * What a model receives from each tool, through the real MCP server and the
 * SDK client, converted the two ways clients turn a CallToolResult into model
 * input (docs/mcp-tools.md, "What the model receives"):
 *
 * - structuredContent first (Claude Code, Codex, OpenCode, Copilot CLI):
 *   `JSON.stringify(structuredContent)` when the result has it, else the text;
 * - content first (MCP Inspector, the SDK's example clients): the text parts.
 *
 * For every tool, with and without `--structured`, at its default budget and
 * at seeded random budgets, the model-facing text must hold the rendered
 * answer (a search's scaffold blocks included) and stay within budget_tokens,
 * by reponav's estimate and by the o200k tokenizer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { openMcpService, type McpService } from '../../src/mcp-server/mcp-service.js';
import { estimateTokens } from '../../src/budget/index.js';
import { TOOL_NAMES } from '../../src/tools/tool-types.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { mulberry32 } from '../helpers/mulberry32.js';
import { connectInMemory, textOf, type ConnectedClient } from './mcp-client.js';
import { makeGitHistory } from './git-fixture.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';

/** One call per tool, and a piece of its rendered answer that must reach the model. */
const CALLS: Record<(typeof TOOL_NAMES)[number], { args: Record<string, unknown>; holds: string[] }> = {
  search: { args: { query: 'order total tax discount' }, holds: ['[ANCHORS]', '[GLIMPSE]', '[CANDIDATE_TARGETS]', 'shop/pricing.py'] },
  snippet_search: { args: { query: 'order total tax' }, holds: ['shop/pricing.py'] },
  semantic_search: { args: { query: 'order total tax' }, holds: ['shop/'] },
  list_symbols: { args: { file: 'shop/pricing.py' }, holds: ['PriceCalculator'] },
  find_class: { args: { name: 'PriceCalculator' }, holds: ['shop/pricing.py'] },
  find_function: { args: { name: 'checkout' }, holds: ['Cart.checkout'] },
  find_references: { args: { name: 'round_money' }, holds: ['round_money'] },
  find_code_snippet: { args: { text: 'encodeURIComponent' }, holds: ['web/src/api-client.ts'] },
  regex_search: { args: { pattern: 'def \\w+' }, holds: ['def '] },
  view_code: { args: { symbol: 'PriceCalculator' }, holds: ['class PriceCalculator'] },
  list_files: { args: {}, holds: ['shop'] },
  repo_map: { args: {}, holds: ['[MAP]'] },
  changed_files: { args: {}, holds: ['shop/pricing.py'] },
  diff: { args: { file: 'shop/models.py', from: 'HEAD~1', to: 'HEAD' }, holds: ['Order.total'] },
  file_history: { args: { file: 'shop/models.py' }, holds: ['Round order totals'] },
  blame_lines: { args: { file: 'shop/models.py', start: 30, end: 40 }, holds: ['Ada Lovelace'] },
  index_status: { args: {}, holds: ['tools-repo'] },
  reindex: { args: {}, holds: ['tools-repo'] },
};

type ToolResult = { content?: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

/** Claude Code 2.1, Codex, OpenCode: the structured JSON replaces the text whenever it is there. */
function structuredFirst(result: ToolResult): string {
  return result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : textOf(result);
}

/** MCP Inspector and the SDK's example clients: the text content. */
function contentFirst(result: ToolResult): string {
  return textOf(result);
}

const SEED = 4040;
const random = mulberry32(SEED);
/** Budgets to call at: the tool's default (undefined) and three seeded draws from [100, 3000]. */
const BUDGETS: Array<number | undefined> = [undefined, ...Array.from({ length: 3 }, () => 100 + Math.floor(random() * 2900))];

describe.each([false, true])('what the model receives (structured output %s)', (structured) => {
  let copy: FixtureCopy;
  let service: McpService;
  let connection: ConnectedClient;
  const defaults = new Map(createToolRegistry().list().map((tool) => [tool.name, tool.defaultBudgetTokens]));

  beforeAll(async () => {
    copy = copyFixture();
    makeGitHistory(copy.root);
    service = await openMcpService({ repositories: [{ path: copy.root, indexPath: copy.indexPath }], tools: { include: [...TOOL_NAMES] }, structured });
    connection = await connectInMemory(service);
  });
  afterAll(async () => {
    await connection?.close();
    await service?.close();
    copy.cleanup();
  });

  it('lists an outputSchema only with structured output, its first field the rendered text', async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    const withSchema = tools.filter((t) => t.outputSchema);
    expect(withSchema.map((t) => t.name)).toEqual(structured ? ['search', 'list_symbols'] : []);
    for (const tool of withSchema) expect(Object.keys(tool.outputSchema!.properties ?? {})[0]).toBe('text');
  });

  it.each([...TOOL_NAMES])('%s: both conversions hold the rendered answer within budget_tokens', async (name) => {
    const { args, holds } = CALLS[name];
    for (const budget of BUDGETS) {
      const limit = budget ?? defaults.get(name)!;
      const callArgs = budget === undefined ? args : { ...args, budget_tokens: budget };
      const result = (await connection.client.callTool({ name, arguments: callArgs })) as ToolResult;
      const where = `seed ${SEED}, ${name} ${JSON.stringify(callArgs)}`;
      expect(result.isError ?? false, `${where}: ${textOf(result)}`).toBe(false);
      expect(result.structuredContent !== undefined, where).toBe(structured && (name === 'search' || name === 'list_symbols'));
      for (const [conversion, modelText] of [
        ['structuredContent first', structuredFirst(result)],
        ['content first', contentFirst(result)],
      ] as const) {
        const at = `${where}, ${conversion}`;
        expect(estimateTokens(modelText), at).toBeLessThanOrEqual(limit);
        expect(countTokens(modelText), at).toBeLessThanOrEqual(limit);
        // The rendered answer itself reaches the model: the text, or the envelope whose first field is that text.
        const rendered = conversion === 'structuredContent first' && result.structuredContent ? (JSON.parse(modelText) as { text: string }).text : modelText;
        expect(rendered, at).toBe(textOf(result));
        if (limit >= 1000) for (const piece of holds) expect(rendered, `${at}: holds ${piece}`).toContain(piece);
      }
    }
  });
});
