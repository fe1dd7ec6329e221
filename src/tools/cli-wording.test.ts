import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture } from '../../test/cli/harness.js';
import { callTool, singleToolRegistry } from './call-tool.js';
import { findFunctionTool } from './find-symbol-tools.js';
import { RepositorySet } from './repository-set.js';
import type { AnyToolDefinition } from './tool-types.js';

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
});
