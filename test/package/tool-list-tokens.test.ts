/**
 * The tool-list token figures in the docs are what `npm run tools:tokens`
 * prints: every table under a `<!-- tools:tokens ARGS -->` line is the
 * script's output with those arguments, every row of the totals table is its
 * `--total` with that row's arguments, and the totals the prose repeats match.
 * Runs the script's function on the built dist/ in this process for every
 * argument list, and the script itself once as a command (same output).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './readme.js';
// @ts-expect-error: a script in plain JavaScript, without type declarations
import { toolListTokens } from '../../scripts/tool-list-tokens.mjs';

const script = join(PROJECT_ROOT, 'scripts', 'tool-list-tokens.mjs');
const measured = new Map<string, string>();

/** The script's output for `args`, measured in this process (memoised: the docs name some argument lists twice). */
async function tokens(args: string[]): Promise<string> {
  const key = args.join(' ');
  if (!measured.has(key)) measured.set(key, (await toolListTokens(args)).trim());
  return measured.get(key)!;
}

const docs = readFileSync(join(PROJECT_ROOT, 'docs', 'mcp-tools.md'), 'utf8');
const benchmarks = readFileSync(join(PROJECT_ROOT, 'docs', 'benchmarks.md'), 'utf8');
const grouped = (n: number) => n.toLocaleString('en-US');

/** The block of lines (up to a blank line) after each `<!-- tools:tokens ARGS -->` marker. */
function markedBlocks(text: string): Array<{ args: string; block: string }> {
  const out: Array<{ args: string; block: string }> = [];
  for (const match of text.matchAll(/^<!-- tools:tokens ?(.*?) -->\n((?:.+\n?)+)/gm)) out.push({ args: match[1].trim(), block: match[2].trim() });
  return out;
}

describe('tool-list token figures in the docs', () => {
  const blocks = markedBlocks(docs);

  it('marks the default table, the git-tools table and the totals table', () => {
    expect(blocks.map((b) => b.args)).toEqual(['', '--tools default,changed_files,diff,file_history,blame_lines', 'totals']);
  });

  it('prints each marked table exactly', async () => {
    for (const { args, block } of blocks.filter((b) => b.args !== 'totals')) {
      expect(block, `npm run tools:tokens -- ${args}`).toBe(await tokens(args ? args.split(' ') : []));
    }
  });

  it('prints, run as a command, what its function returns', async () => {
    const printed = execFileSync(process.execPath, [script, '--tools', 'search,list_symbols,view_code', '--total'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
    expect(printed).toBe(await tokens(['--tools', 'search,list_symbols,view_code', '--total']));
    expect(printed).toMatch(/^\d+$/);
  });

  it('prints each total of the totals table', async () => {
    const rows = [...blocks.find((b) => b.args === 'totals')!.block.matchAll(/^\| `([^`]+)` \| (\d+) \|$/gm)];
    expect(rows.length).toBeGreaterThan(0);
    for (const [, args, total] of rows) expect(total, args).toBe(await tokens([...args.split(' '), '--total']));
  });

  it('repeats the same totals in prose', async () => {
    const total = (table: string) => Number(/\*\*tools\/list result, total\*\* \| \*\*(\d+)\*\*/.exec(table)![1]);
    const defaults = total(await tokens([]));
    const withGit = total(await tokens(['--tools', 'default,changed_files,diff,file_history,blame_lines']));
    const search = Number(/^\| search \| (\d+) \|/m.exec(await tokens([]))![1]);
    expect(benchmarks).toContain(`costs ${grouped(defaults)} tokens of an`);
    expect(benchmarks).toContain(`${grouped(withGit)} with the four opt-in git tools`);
    expect(docs).toContain(`the default list ${grouped(defaults)} where`);
    expect(docs).toContain(`\`search\` costs ${search} tokens`);
  });
});
