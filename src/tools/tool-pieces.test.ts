/**
 * Every built-in tool (TOOL_NAMES) has each piece a tool needs, so a tool added
 * to the union without one of them fails here by name: its definition in
 * BUILTIN_TOOLS with a strict input schema, a title and an LLM-facing
 * description; a row in docs/mcp-tools.md's "Which tool when"; a recorded real
 * answer under "One real call of each tool" (scripts/tool-examples.mjs writes
 * them); and its name in the README's MCP section. CONTRIBUTING.md's "Add an
 * MCP tool" recipe lists the same files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from './builtin-tools.js';
import { TOOL_NAMES } from './tool-types.js';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The text of `markdown` from the heading `title` (any level) to the next heading of that level or higher. */
function section(markdown: string, title: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+\s*/, '') === title);
  if (start < 0) throw new Error(`no heading "${title}"`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

const mcpTools = read('docs/mcp-tools.md');
const whichToolWhen = section(mcpTools, 'Which tool when');
const realCalls = section(mcpTools, 'One real call of each tool');
const readmeMcp = section(read('README.md'), 'MCP server');

describe('every tool name has its pieces', () => {
  it('the names are the tools, once each', () => {
    expect(new Set(TOOL_NAMES).size).toBe(TOOL_NAMES.length);
    expect(BUILTIN_TOOLS.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
  });

  for (const name of TOOL_NAMES) {
    describe(name, () => {
      const tool = BUILTIN_TOOLS.find((t) => t.name === name);

      it('has a definition with a title, a description written for a model, and a strict input schema', () => {
        expect(tool, `no definition named ${name} in BUILTIN_TOOLS`).toBeDefined();
        expect(tool!.title.trim()).not.toBe('');
        expect(tool!.description.length).toBeGreaterThan(80);
        const result = tool!.inputSchema.safeParse({ not_an_argument_of_any_tool: 1 });
        expect(result.success).toBe(false);
        expect(result.error!.issues.map((issue) => issue.code)).toContain('unrecognized_keys');
      });

      it('has a row in docs/mcp-tools.md "Which tool when"', () => {
        const rows = whichToolWhen.split('\n').filter((line) => line.startsWith('| '));
        expect(rows.some((row) => row.split('|')[1]!.includes(`\`${name}\``)), `no row names \`${name}\``).toBe(true);
      });

      it('has a recorded real answer in docs/mcp-tools.md "One real call of each tool"', () => {
        expect(realCalls, `no "### ${name} {…}" entry (run node scripts/tool-examples.mjs)`).toMatch(new RegExp(`^### ${name} \\{`, 'm'));
      });

      it("is named in the README's MCP section", () => {
        expect(readmeMcp).toContain(`\`${name}\``);
      });
    });
  }
});
