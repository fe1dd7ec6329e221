/**
 * Golden answers of list_files, repo_map and the git tools over the tools
 * fixture with a fixed git history (test/mcp/git-fixture.ts). To accept new
 * output after an intended change: UPDATE_GOLDEN=1 npx vitest run src/tools/new-tools.golden.test.ts,
 * then review the diff of src/tools/__golden__/ by eye.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';
import { makeGitHistory } from '../../test/mcp/git-fixture.js';

const GOLDEN = fileURLToPath(new URL('./__golden__/', import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const CASES: Array<[string, string, Record<string, unknown>]> = [
  ['list-files-root', 'list_files', {}],
  ['list-files-depth-3', 'list_files', { depth: 3 }],
  ['list-files-pattern', 'list_files', { path: 'shop', file_pattern: '*.py' }],
  ['list-files-page', 'list_files', { depth: 3, offset: 4, limit: 5 }],
  ['repo-map', 'repo_map', {}],
  ['repo-map-budget-150', 'repo_map', { budget_tokens: 150 }],
  ['repo-map-focus', 'repo_map', { focus: ['Cart'], budget_tokens: 300 }],
  ['changed-files-worktree', 'changed_files', {}],
  ['changed-files-revisions', 'changed_files', { from: 'HEAD~1', to: 'HEAD' }],
  ['diff-revisions', 'diff', { file: 'shop/models.py', from: 'HEAD~1', to: 'HEAD' }],
  ['diff-worktree', 'diff', { file: 'shop/pricing.py' }],
  ['file-history', 'file_history', { file: 'shop/models.py' }],
  ['file-history-symbol', 'file_history', { file: 'shop/models.py', symbol: 'Item.subtotal' }],
  ['blame-lines', 'blame_lines', { file: 'shop/models.py', start: 34, end: 38 }],
];

describe('golden answers of the new tools', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
    makeGitHistory(h.copy.root);
    await h.repositories.select().refresh();
  });
  afterAll(async () => h.close());

  for (const [name, tool, args] of CASES) {
    it(`${tool} ${JSON.stringify(args)}`, async () => {
      const result = await h.call(tool, args);
      expect(result.isError, result.text).toBe(false);
      // Commit ids differ from run to run only if the fixed dates or identity change; the text is stable otherwise.
      const text = `${result.text}\n`;
      const file = join(GOLDEN, `${name}.txt`);
      if (UPDATE || !existsSync(file)) {
        if (!UPDATE) throw new Error(`missing golden ${file}; run with UPDATE_GOLDEN=1`);
        mkdirSync(GOLDEN, { recursive: true });
        writeFileSync(file, text);
      }
      expect(text).toBe(readFileSync(file, 'utf8'));
    });
  }
});
