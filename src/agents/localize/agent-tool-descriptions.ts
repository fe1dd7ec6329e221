/**
 * What the agent's prompt says each index tool does. The tools' own
 * descriptions are written for an MCP client that has every tool (they send
 * the reader on to `view_code`, `find_class`, …); the agent has only its
 * interface's tools and the shell, so each description here names only
 * tools the interface offers, and `search`'s follows the interface's view
 * (the scaffold's blocks, or a comparison interface).
 */
import type { AgentInterface, SearchView } from './agent-interfaces.js';

const BLOCK_TEXT = {
  anchors: 'ANCHORS: symbols matching the query, with callers and callees',
  glimpse: 'GLIMPSE: other relevant symbols',
  targets: 'CANDIDATE_TARGETS: where to read or edit, with line spans',
} as const;

/** The description of `tool` for `iface`, or null to keep the tool's own (a tool not covered here). */
export function agentToolDescription(tool: string, iface: AgentInterface): string | null {
  const has = (name: string) => iface.tools.includes(name);
  const read = has('list_symbols') ? 'list_symbols shows a file\'s outline; read the code with bash' : 'read the code with bash';
  switch (tool) {
    case 'search':
      return `${searchWhat(iface.search ?? { render: 'scaffold', blocks: { anchors: true, glimpse: true, targets: true } })} Then ${read} (\`sed -n 'START,ENDp' FILE\`).`;
    case 'snippet_search':
      return "Search the code for an issue, error message or question: answers with the best-matching code chunks themselves (numbered lines), best first, so candidate code can be read at once. top_k: how many (default 10).";
    case 'list_symbols':
      return `One file's outline without bodies: imports, importers, every class, function and method with line span, signature and doc line. Use it to choose what to read${has('search') || has('snippet_search') ? ` after ${has('search') ? 'search' : 'snippet_search'} names a file` : ''}; read the bodies with bash.`;
    default:
      return null;
  }
}

function searchWhat(view: SearchView): string {
  switch (view.render) {
    case 'file-only':
      return 'Start here for an issue, error message or question: the files most likely involved, ranked, one path per line (nothing inside the files).';
    case 'inline':
      return 'Start here for an issue, error message or question: the files most likely involved, ranked, each with the symbols and line spans of its best hits listed under it.';
    case 'scaffold': {
      const blocks = (['anchors', 'glimpse', 'targets'] as const).filter((b) => view.blocks[b]).map((b) => BLOCK_TEXT[b]);
      const inside = blocks.length > 0 ? ` (${blocks.join('; ')})` : '';
      return `Start here for an issue, error message or question: the files and symbols most likely involved, as a tree${inside}.`;
    }
  }
}
