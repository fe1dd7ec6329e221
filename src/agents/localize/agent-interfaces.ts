/**
 * The four tool interfaces of the paper's agent experiment. Every interface
 * has the shell; they differ only in which index tools come with it, so a
 * comparison isolates what the tools add:
 *
 * | interface         | tools                                   |
 * |-------------------|-----------------------------------------|
 * | `bash`            | bash                                    |
 * | `snippet`         | bash, snippet_search                    |
 * | `snippet+listsym` | bash, snippet_search, list_symbols      |
 * | `reponav`         | bash, search (scaffold), list_symbols   |
 */
import { ReponavError } from '../../errors.js';

/** Interface names, in the order of the paper's table. */
export const AGENT_INTERFACES = ['bash', 'snippet', 'snippet+listsym', 'reponav'] as const;

/** One of {@link AGENT_INTERFACES}. */
export type AgentInterfaceName = (typeof AGENT_INTERFACES)[number];

/** The pseudo-tool name of the shell in the action protocol. */
export const SHELL_TOOL = 'bash';

/** Index tools (registry names) each interface adds to the shell, in prompt order. */
const INDEX_TOOLS: Record<AgentInterfaceName, readonly string[]> = {
  bash: [],
  snippet: ['snippet_search'],
  'snippet+listsym': ['snippet_search', 'list_symbols'],
  reponav: ['search', 'list_symbols'],
};

/** An interface: its name and the tools the model may use. */
export interface AgentInterface {
  name: AgentInterfaceName;
  /** Index tools from the tool registry (empty for `bash`). */
  indexTools: readonly string[];
  /** Every tool name the model may call, the shell first. */
  tools: readonly string[];
}

/**
 * The interface called `name` (case-insensitive; `snippet_listsym` and
 * `snippet-listsym` are accepted for `snippet+listsym`, which is awkward in
 * some shells). Throws BAD_INPUT listing the choices for anything else.
 */
export function resolveAgentInterface(name: string | undefined): AgentInterface {
  const wanted = (name ?? 'reponav').trim().toLowerCase().replace(/^snippet[-_]listsym$/, 'snippet+listsym');
  const match = AGENT_INTERFACES.find((candidate) => candidate === wanted);
  if (!match) {
    throw new ReponavError('BAD_INPUT', `Unknown agent interface '${name}'; use one of ${AGENT_INTERFACES.join(', ')}.`, {
      interface: name,
    });
  }
  const indexTools = INDEX_TOOLS[match];
  return { name: match, indexTools, tools: [SHELL_TOOL, ...indexTools] };
}
