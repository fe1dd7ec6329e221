import { describe, expect, it } from 'vitest';
import { createToolRegistry } from '../../tools/index.js';
import { AGENT_INTERFACES, resolveAgentInterface } from './agent-interfaces.js';
import { buildSystemPrompt } from './system-prompt.js';
import { interfaceToolSpecs } from './tool-specs.js';

const shell = { programs: ['cat', 'grep', 'sed'], timeoutMs: 10_000, maxOutputChars: 20_000, allowAnyCommand: false };
const registry = createToolRegistry();
const TOOL_NAMES = registry.list().map((t) => t.name);

/** Tool names the text refers to: snake_case names as words; `search` only where it is a tool's name, not the verb. */
function mentionedTools(text: string): string[] {
  const named = TOOL_NAMES.filter((name) => name.includes('_') && new RegExp(`\\b${name}\\b`).test(text));
  const searchAsName = /### search\b|\bLike search\b|\buse search\b|\bafter search\b|`search`|"tool": "search"/.test(text);
  return [...named, ...(searchAsName ? ['search'] : [])];
}

describe('agent prompts name only the tools they offer', () => {
  it.each(AGENT_INTERFACES)('%s', (name) => {
    const iface = resolveAgentInterface(name);
    const prompt = buildSystemPrompt({ iface, toolSpecs: interfaceToolSpecs(iface, shell, registry), maxSteps: 30 });
    const offered = new Set(iface.tools);
    expect(mentionedTools(prompt).filter((tool) => !offered.has(tool))).toEqual([]);
    for (const tool of iface.indexTools) expect(prompt).toContain(`### ${tool}\n`);
  });

  it('describes each search view by what it shows', () => {
    const prompt = (name: string) => interfaceToolSpecs(resolveAgentInterface(name), shell, registry).join('\n');
    expect(prompt('reponav')).toMatch(/ANCHORS: .*GLIMPSE: .*CANDIDATE_TARGETS: /);
    expect(prompt('reponav-no-anchors')).not.toContain('ANCHORS');
    expect(prompt('reponav-no-glimpse')).not.toContain('GLIMPSE');
    expect(prompt('reponav-no-targets')).not.toContain('CANDIDATE_TARGETS');
    expect(prompt('file-only')).toContain('one path per line');
    expect(prompt('inline-scaffold')).toContain('listed under it');
    // The MCP descriptions send the reader on to tools the agent does not have; the agent's do not.
    expect(registry.get('search')!.description).toMatch(/view_code/);
  });
});
