/**
 * Test support: the strict-argument checks every transport must pass on the
 * tools fixture — closed input schemas in the tool list, a misspelled argument
 * refused with the closest valid name, numeric strings taken as numbers.
 */
import { expect } from 'vitest';
import { call, type AnyClient } from './mcp-client.js';

export async function expectStrictArguments(client: AnyClient): Promise<void> {
  const { tools } = await client.listTools();
  for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
  const bad = await call(client, 'search', { query: 'discount', filePattern: '*.ts' });
  expect(bad.isError).toBe(true);
  expect(bad.text).toBe("Unknown argument 'filePattern' (did you mean 'file_pattern'?) for search; search takes query, file_pattern, repo, budget_tokens.");
  const numeric = await call(client, 'view_code', { file: 'shop/pricing.py', start: '8', end: '9' });
  expect(numeric.isError).toBe(false);
  expect(numeric.text).toContain('9 |     return int(amount * 100 + 0.5) / 100');
}
