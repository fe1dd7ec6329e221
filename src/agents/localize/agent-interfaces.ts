/**
 * The tool interfaces of the paper's agent experiment, and the RQ2
 * ablations of the scaffold as interfaces of their own. Every interface has
 * the shell; they differ only in which index tools come with it and in how
 * `search` renders its result, so a comparison isolates what the tools add:
 *
 * | interface            | tools                                  | search shows                             |
 * |----------------------|----------------------------------------|------------------------------------------|
 * | `bash`               | bash                                   | —                                        |
 * | `snippet`            | bash, snippet_search                   | —                                        |
 * | `snippet+listsym`    | bash, snippet_search, list_symbols     | —                                        |
 * | `reponav`            | bash, search, list_symbols             | the scaffold                             |
 * | `file-only`          | bash, search, list_symbols             | the ranked file list (RQ2 File-Only)     |
 * | `inline-scaffold`    | bash, search, list_symbols             | files with their hit lines (RQ2 Inline)  |
 * | `reponav-no-anchors` | bash, search, list_symbols             | the scaffold without ANCHORS             |
 * | `reponav-no-glimpse` | bash, search, list_symbols             | the scaffold without GLIMPSE             |
 * | `reponav-no-targets` | bash, search, list_symbols             | the scaffold without CANDIDATE_TARGETS   |
 */
import { ReponavError } from '../../errors.js';

/** Interface names: the paper's table, then the RQ2 ablations. */
export const AGENT_INTERFACES = [
  'bash',
  'snippet',
  'snippet+listsym',
  'reponav',
  'file-only',
  'inline-scaffold',
  'reponav-no-anchors',
  'reponav-no-glimpse',
  'reponav-no-targets',
] as const;

/** One of {@link AGENT_INTERFACES}. */
export type AgentInterfaceName = (typeof AGENT_INTERFACES)[number];

/** The pseudo-tool name of the shell in the action protocol. */
export const SHELL_TOOL = 'bash';

/** How the interface's `search` tool renders: the scaffold (with some blocks off), or a comparison interface. */
export interface SearchView {
  render: 'scaffold' | 'file-only' | 'inline';
  /** Scaffold blocks shown (only for `render: 'scaffold'`). */
  blocks: { anchors: boolean; glimpse: boolean; targets: boolean };
}

const ALL_BLOCKS = { anchors: true, glimpse: true, targets: true } as const;
const REPONAV_TOOLS = ['search', 'list_symbols'] as const;

/** Index tools (registry names) each interface adds to the shell, in prompt order, and its search view. */
const INTERFACES: Record<AgentInterfaceName, { indexTools: readonly string[]; search?: SearchView }> = {
  bash: { indexTools: [] },
  snippet: { indexTools: ['snippet_search'] },
  'snippet+listsym': { indexTools: ['snippet_search', 'list_symbols'] },
  reponav: { indexTools: REPONAV_TOOLS, search: { render: 'scaffold', blocks: ALL_BLOCKS } },
  'file-only': { indexTools: REPONAV_TOOLS, search: { render: 'file-only', blocks: ALL_BLOCKS } },
  'inline-scaffold': { indexTools: REPONAV_TOOLS, search: { render: 'inline', blocks: ALL_BLOCKS } },
  'reponav-no-anchors': { indexTools: REPONAV_TOOLS, search: { render: 'scaffold', blocks: { ...ALL_BLOCKS, anchors: false } } },
  'reponav-no-glimpse': { indexTools: REPONAV_TOOLS, search: { render: 'scaffold', blocks: { ...ALL_BLOCKS, glimpse: false } } },
  'reponav-no-targets': { indexTools: REPONAV_TOOLS, search: { render: 'scaffold', blocks: { ...ALL_BLOCKS, targets: false } } },
};

/** An interface: its name and the tools the model may use. */
export interface AgentInterface {
  name: AgentInterfaceName;
  /** Index tools from the tool registry (empty for `bash`). */
  indexTools: readonly string[];
  /** Every tool name the model may call, the shell first. */
  tools: readonly string[];
  /** How `search` renders, when the interface has it. */
  search?: SearchView;
}

/** Other spellings accepted for an interface (awkward characters in some shells, the paper's names). */
const ALIASES: Record<string, AgentInterfaceName> = {
  snippet_listsym: 'snippet+listsym',
  'snippet-listsym': 'snippet+listsym',
  fileonly: 'file-only',
  file_only: 'file-only',
  inline: 'inline-scaffold',
  inline_scaffold: 'inline-scaffold',
};

/**
 * The interface called `name` (case-insensitive; see ALIASES for the other
 * spellings). Throws BAD_INPUT listing the choices for anything else.
 */
export function resolveAgentInterface(name: string | undefined): AgentInterface {
  const wanted = (name ?? 'reponav').trim().toLowerCase();
  const match = AGENT_INTERFACES.find((candidate) => candidate === wanted) ?? ALIASES[wanted];
  if (!match) {
    throw new ReponavError('BAD_INPUT', `Unknown agent interface '${name}'; use one of ${AGENT_INTERFACES.join(', ')}.`, {
      interface: name,
    });
  }
  const { indexTools, search } = INTERFACES[match];
  return { name: match, indexTools, tools: [SHELL_TOOL, ...indexTools], ...(search ? { search } : {}) };
}
