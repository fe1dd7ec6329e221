import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture } from '../../test/cli/harness.js';
import { callTool, singleToolRegistry } from './call-tool.js';
import { findFunctionTool } from './find-symbol-tools.js';
import { regexSearchTool } from './regex-search-tool.js';
import { RepositorySet } from './repository-set.js';
import type { AnyToolDefinition } from './tool-types.js';
import { viewCodeTool } from './view-code-tool.js';

afterAll(cleanupTempDirs);

const failing = {
  ...findFunctionTool,
  run: () => {
    throw new Error('boom');
  },
} as unknown as AnyToolDefinition;

describe('answers worded for who reads them', () => {
  it('the CLI is never told of MCP tools or of a server that keeps running; an MCP client is', async () => {
    const fixture = copyIndexFixture();
    const repositories = await RepositorySet.open([{ path: fixture.root, indexPath: join(fixture.dir, 'index', 'i.db') }]);
    try {
      const cli = await callTool(singleToolRegistry(findFunctionTool), 'find_function', { name: 'no_such_function_anywhere' }, { repositories, surface: 'cli' });
      expect(cli.text).not.toMatch(/find_code_snippet|find_class|find_function/);
      expect(cli.text).toContain('`reponav search`');
      const mcp = await callTool(singleToolRegistry(findFunctionTool), 'find_function', { name: 'no_such_function_anywhere' }, { repositories });
      expect(mcp.text).toContain('find_code_snippet');
      const crashedCli = await callTool(singleToolRegistry(failing), 'find_function', { name: 'x' }, { repositories, surface: 'cli' });
      expect(crashedCli).toMatchObject({ isError: true, errorCode: 'INTERNAL' });
      expect(crashedCli.text).toBe('Internal error in find_function: boom. Try again, or report this with the command you ran.');
      const crashedMcp = await callTool(singleToolRegistry(failing), 'find_function', { name: 'x' }, { repositories });
      expect(crashedMcp.text).toBe('Internal error in find_function: boom. The server keeps running; try again or report this.');
    } finally {
      await repositories.close();
    }
  });

  it("view_code's truncation line, its unknown-symbol error and regex_search's invalid-pattern hint name CLI commands in the CLI", async () => {
    const fixture = copyIndexFixture();
    const repositories = await RepositorySet.open([{ path: fixture.root, indexPath: join(fixture.dir, 'index', 'i.db') }]);
    try {
      const call = (tool: AnyToolDefinition, args: Record<string, unknown>, surface?: 'cli') =>
        callTool(singleToolRegistry(tool), tool.name, args, { repositories, ...(surface ? { surface } : {}) });
      const view = { file: 'inventory/stock.py', budget_tokens: 100 };
      const cliView = await call(viewCodeTool, view, 'cli');
      expect(cliView.text).toMatch(/\[TRUNCATED\] lines \d+-\d+ left out .*; run `reponav view inventory\/stock\.py --start \d+` to continue\.$/);
      expect((await call(viewCodeTool, view)).text).toMatch(/call view_code with start=\d+ to continue\.$/);
      const cliSymbol = await call(viewCodeTool, { symbol: 'no_such_symbol' }, 'cli');
      expect(cliSymbol.isError).toBe(true);
      expect(cliSymbol.text).toContain('`reponav symbols`');
      expect(cliSymbol.text).not.toMatch(/list_symbols|find_function|find_class/);
      expect((await call(viewCodeTool, { symbol: 'no_such_symbol' })).text).toContain('list_symbols');
      const cliRegex = await call(regexSearchTool, { pattern: '(a' }, 'cli');
      expect(cliRegex.isError).toBe(true);
      expect(cliRegex.text).toContain('`reponav search`');
      expect(cliRegex.text).not.toContain('find_code_snippet');
      expect((await call(regexSearchTool, { pattern: '(a' })).text).toContain('find_code_snippet');
    } finally {
      await repositories.close();
    }
  });
});
