/**
 * The tool descriptions the model reads, built from the tool definitions
 * themselves (their LLM-facing description and zod input schema), so the
 * agent sees exactly what MCP clients see. Two arguments are hidden and
 * dropped from calls: `repo` (there is one repository) and `budget_tokens`
 * (output budgets are fixed per experiment, so interfaces compare fairly).
 */
import * as z from '../../zod-mini.js';
import { ReponavError } from '../../errors.js';
import type { AnyToolDefinition, ToolRegistry } from '../../tools/index.js';
import type { AgentInterface } from './agent-interfaces.js';
import { agentToolDescription } from './agent-tool-descriptions.js';

/** Arguments the agent never sees or sets. */
export const HIDDEN_ARGUMENTS: readonly string[] = ['repo', 'budget_tokens'];

interface JsonSchemaProperty {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
}

/** `args` without the hidden arguments (a copy; non-objects pass through for the tool to reject). */
export function withoutHiddenArguments(args: unknown): unknown {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return args;
  const copy: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const name of HIDDEN_ARGUMENTS) delete copy[name];
  return copy;
}

/**
 * One tool as Markdown for the system prompt: a `### name` heading, the
 * description (default the definition's; the agent passes one naming only
 * its interface's tools, see agent-tool-descriptions.ts), and its visible
 * arguments with type, whether required, and their own descriptions.
 */
export function renderToolSpec(tool: AnyToolDefinition, description: string = tool.description): string {
  const schema = z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonSchemaProperty>;
    required?: string[];
  };
  const required = new Set(schema.required ?? []);
  const lines = [`### ${tool.name}`, description, 'Arguments:'];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (HIDDEN_ARGUMENTS.includes(name)) continue;
    const type = Array.isArray(property.type) ? property.type.join(' | ') : (property.type ?? 'any');
    const choices = property.enum ? ` (one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')})` : '';
    const description = property.description ? `: ${property.description}` : '';
    lines.push(`- "${name}" (${type}, ${required.has(name) ? 'required' : 'optional'})${choices}${description}`);
  }
  return lines.join('\n');
}

/** What the prompt needs to know about the shell. */
export interface ShellDescription {
  programs: readonly string[];
  timeoutMs: number;
  maxOutputChars: number;
  allowAnyCommand: boolean;
}

/** The shell as a tool spec, stating exactly what the command runner accepts. */
export function renderShellSpec(shell: ShellDescription): string {
  const limits = `Each command may run for ${Math.round(shell.timeoutMs / 100) / 10} s; output beyond ${shell.maxOutputChars} characters is cut (the output says so).`;
  if (shell.allowAnyCommand) {
    return [
      '### bash',
      'Run one bash command in a scratch copy of the repository (the current directory is its root) and see its output (stdout and stderr).',
      'Changes to the copy are thrown away and never reach the repository.',
      limits,
    ].join('\n');
  }
  return [
    '### bash',
    'Run one read-only command in the repository (the current directory is its root) and see its output.',
    `Allowed programs: ${shell.programs.join(', ')}.`,
    "Read a file with `cat FILE`, or a line range with `sed -n 'START,ENDp' FILE`; search with `grep -rn PATTERN DIR`.",
    'Quote arguments as in a shell. One pipeline `a | b` of allowed programs is fine; unquoted `*`, `?` and `[...]` are expanded.',
    'Not available: `cd` (every command starts at the repository root, so use relative paths), `;`, `&&`, `||`, redirections ' +
      '(only `2>/dev/null` and `2>&1`), `$VAR`, `$(...)`, backticks, absolute paths or `..` leading out of the repository, ' +
      'and anything that writes (sed needs -n and may not use -i; find may not use -exec or -delete).',
    limits,
  ].join('\n');
}

/**
 * The tool section of an interface's prompt: the shell, then each index tool
 * with the description for that interface (naming only its tools). Throws
 * BAD_INPUT when the registry lacks a tool the interface needs.
 */
export function interfaceToolSpecs(iface: AgentInterface, shell: ShellDescription, registry: ToolRegistry | undefined): string[] {
  const specs = [renderShellSpec(shell)];
  for (const name of iface.indexTools) {
    const tool = registry?.get(name);
    if (!tool) throw new ReponavError('BAD_INPUT', `The ${iface.name} interface needs the '${name}' tool, but no tool registry with it was given.`);
    specs.push(renderToolSpec(tool, agentToolDescription(name, iface) ?? tool.description));
  }
  return specs;
}
