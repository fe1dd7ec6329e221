/**
 * The tool registry (by default every built-in tool). The one way to call a
 * tool, callTool, is in call-tool.ts, which imports no tool: a CLI command
 * that runs one tool loads that tool only (see single/index.ts).
 */
import { BUILTIN_TOOLS } from './builtin-tools.js';
import type { AnyToolDefinition, ToolRegistry } from './tool-types.js';

export { callTool, formatArgumentError } from './call-tool.js';
export type { ToolRegistry } from './tool-types.js';

/** Which tools a registry holds. */
export interface ToolRegistryOptions {
  /** Tool definitions; default: every built-in tool. */
  tools?: readonly AnyToolDefinition[];
  /** Keep only these names (e.g. a baseline agent gets `snippet_search` and `view_code`). Unknown names throw. */
  include?: readonly string[];
  /** Drop these names (after `include`). Unknown names throw. */
  exclude?: readonly string[];
}

/** Builds a registry; throws on duplicate or unknown tool names. */
export function createToolRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  const all = options.tools ?? BUILTIN_TOOLS;
  const tools = new Map<string, AnyToolDefinition>();
  for (const tool of all) {
    if (tools.has(tool.name)) throw new Error(`Duplicate tool name '${tool.name}'.`);
    tools.set(tool.name, tool);
  }
  if (options.include) {
    for (const name of options.include) if (!tools.has(name)) throw new Error(`Unknown tool '${name}'.`);
    for (const name of [...tools.keys()]) if (!options.include.includes(name)) tools.delete(name);
  }
  if (options.exclude) {
    for (const name of options.exclude) if (!all.some((t) => t.name === name)) throw new Error(`Unknown tool '${name}'.`);
    for (const name of options.exclude) tools.delete(name);
  }
  return { tools, list: () => [...tools.values()], get: (name) => tools.get(name) };
}
