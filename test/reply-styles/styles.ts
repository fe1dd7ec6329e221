/**
 * The reply styles of the reply-style suite and the table it writes: each
 * style rewrites the clean reply a run needs into the shape a real endpoint
 * or model produces; each row of the suite records what it observed (exit,
 * stop reason, what the run saved, whether a resume redoes it) and the
 * tables in docs/localization-agent.md and docs/question-answering.md are
 * rendered from those observations (checked, or rewritten with UPDATE_GOLDEN=1).
 */
import { replies, styles, type StyledReply, type WireProvider } from '../helpers/scripted-llm-server.js';

/** The commands the suite drives. */
export type Surface = 'localize' | 'eval locbench --mode agent' | 'ask' | 'eval sweqa';

/** State one run of a style keeps (which one-off deviations were already made). */
export type RunState = Set<string>;

/** How a style writes one reply, given the clean text of that reply. */
export interface Style {
  name: string;
  /** The reply for clean text `text` on call number `n` (1-based) of the run. */
  write(text: string, n: number, state: RunState): StyledReply | StyledReply[];
  /** Endpoint refusals (o-series). */
  rejects?: Array<'max_tokens' | 'temperature'>;
  /** Only for one wire format. */
  only?: WireProvider;
  /** Only for these commands (default: all). */
  surfaces?: Surface[];
  /** A model-call failure: the run must end as an error (exit 1 for a single run, an error record in a harness). */
  outage?: boolean;
  /** Every reply is left unfinished (cut): a harness records an error, never a prediction, and a resume redoes it. */
  unfinished?: boolean;
  /** Short model-call limits, so a hang takes a fraction of a second instead of the 60 s default. */
  shortTimeout?: boolean;
}

const TOOL_BLOCK = /^```tool\n([\s\S]*?)\n```$/;

/** `{tool, args}` of a clean localize tool block, or null. */
function toolOf(text: string): { tool: string; args: Record<string, unknown> } | null {
  const block = TOOL_BLOCK.exec(text);
  return block ? (JSON.parse(block[1]!) as { tool: string; args: Record<string, unknown> }) : null;
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The reply as a native tool call (`tool_calls` / `tool_use`) when it is a tool block; JSON replies stay text. */
function nativeCall(text: string): StyledReply {
  const call = toolOf(text);
  return call ? replies.toolCall(call.tool, call.args) : { text };
}

const LOCALIZE_SURFACES: Surface[] = ['localize', 'eval locbench --mode agent'];

/** Every style, in table order. */
export const STYLES: Style[] = [
  { name: 'clean', write: (text) => ({ text }) },
  {
    name: 'JSON in fences',
    write: (text) => {
      if (text.startsWith('```')) return { text: text.replace(/^```(tool|answer)\n/, '```json\n') };
      const json = jsonOf(text);
      return { text: json === undefined ? text : styles.fenced(json) };
    },
  },
  {
    name: 'prose preamble',
    write: (text) => {
      const json = text.startsWith('```') ? undefined : jsonOf(text);
      return { text: json === undefined ? `Let me look at this step by step.\n\n${text}` : styles.prose(json) };
    },
  },
  {
    name: 'LangChain-style Action: lines',
    write: (text) => {
      const call = toolOf(text);
      if (call) return { text: styles.actionLine(call.tool, call.args) };
      const plan = jsonOf(text) as { actions?: Array<{ action: string; args: unknown }> } | undefined;
      const first = plan?.actions?.[0];
      return { text: first ? styles.actionLine(first.action, first.args) : text };
    },
  },
  { name: 'inline <think> holding a drafted reply', write: (text) => ({ text: styles.think('```answer\n{"files": ["shop/__init__.py"]}\n```\n{"score": 10}', text) }) },
  { name: 'reasoning_content only', write: (text) => replies.reasoningOnly(text), only: 'openai' },
  { name: 'thinking block and the text', write: (text) => ({ text, reasoning: 'Let me think: {"score": 10}' }), only: 'anthropic' },
  { name: 'native tool calls', write: (text) => nativeCall(text), surfaces: ['localize', 'ask'] },
  { name: 'cut once', write: (text, n) => (n === 1 ? replies.cut(text.slice(0, 12)) : { text }) },
  { name: 'cut always', write: (text) => replies.cut(text.slice(0, 12)), unfinished: true },
  {
    name: 'unknown tool, then wrong argument names',
    write: (text, _n, state) => {
      const call = toolOf(text);
      if (call && !state.has('unknown')) {
        state.add('unknown');
        return { text: '```tool\n{"tool": "find_function", "args": {"name": "apply_discount"}}\n```' };
      }
      if (call && !state.has('wrong-args')) {
        state.add('wrong-args');
        return { text: '```tool\n{"tool": "search", "args": {"q": "discount applied twice"}}\n```' };
      }
      const plan = jsonOf(text) as { actions?: unknown[] } | undefined;
      if (plan?.actions && !state.has('unknown')) {
        state.add('unknown');
        return { text: JSON.stringify({ actions: [{ action: 'Teleport', args: {} }, { action: 'FindFunction', args: { function_name: 'with_tax' } }] }) };
      }
      return { text };
    },
  },
  {
    name: 'a model that never finishes',
    surfaces: LOCALIZE_SURFACES,
    write: () => ({ text: '```tool\n{"tool": "search", "args": {"query": "discount applied twice"}}\n```' }),
  },
  { name: 'no usage', write: (text) => replies.noUsage(text) },
  { name: 'o-series endpoint refusing max_tokens and temperature', write: (text) => ({ text }), rejects: ['max_tokens', 'temperature'], only: 'openai' },
  {
    // Every text reply (tool calls, answers) is a refusal in plain words under a normal stop; JSON roles answer.
    name: 'a refusal in plain text under a normal stop',
    write: (text) => (text.startsWith('{') ? { text } : { text: "I'm sorry, but I can't help with that request." }),
    outage: true,
  },
  { name: 'empty once', write: (text, n) => (n === 1 ? replies.empty() : { text }) },
  { name: 'empty always', write: () => replies.empty(), outage: true },
  { name: 'a hang past a short --llm-timeout', write: () => replies.hang(5_000), outage: true, shortTimeout: true },
  { name: '429 with Retry-After then 500s', write: () => ({ status: 500 }), outage: true },
];

/** The styles a command runs for one wire format. */
export function stylesFor(surface: Surface, provider: WireProvider): Style[] {
  return STYLES.filter((s) => (!s.only || s.only === provider) && (!s.surfaces || s.surfaces.includes(surface)));
}

/** What one row observed. */
export interface Observation {
  surface: Surface;
  style: string;
  provider: WireProvider;
  exit: string;
  stopReason: string;
  saved: string;
  resume: string;
}

/**
 * The observations as a Markdown table: one row per command and style, the
 * endpoints column says `both` when the two wire formats behaved the same,
 * else each gets its own row.
 */
export function renderTable(observations: readonly Observation[], surfaces: readonly Surface[]): string {
  const lines = ['| command | reply style | endpoint | exit | stop reason | what the run saves | resume |', '|---|---|---|---|---|---|---|'];
  for (const surface of surfaces) {
    for (const style of STYLES) {
      const rows = observations.filter((o) => o.surface === surface && o.style === style.name);
      if (rows.length === 0) continue;
      const same = rows.length === 2 && cells(rows[0]!) === cells(rows[1]!);
      const shown = same ? [{ ...rows[0]!, label: 'both' }] : rows.map((r) => ({ ...r, label: r.provider === 'openai' ? 'OpenAI-compatible' : 'Anthropic' }));
      for (const r of shown) lines.push(`| \`${surface}\` | ${codeSpans(style.name)} | ${r.label} | ${cells(r)} |`);
    }
  }
  return lines.join('\n');
}

/** Tags, flags and field names in a style's name as code, so Markdown shows them (`<think>` would be read as HTML). */
function codeSpans(name: string): string {
  return name.replace(/(<\w+>|--[\w-]+|Action:|max_tokens|reasoning_content|Retry-After)/g, '`$1`');
}

function cells(o: Observation): string {
  return [o.exit, o.stopReason, o.saved, o.resume].map((c) => c.replace(/\|/g, '\\|')).join(' | ');
}

/** Start and end markers of a generated table in a doc. */
export function tableMarkers(name: string): { start: string; end: string } {
  return { start: `<!-- reply-style-table:${name} (generated by test/reply-styles; UPDATE_GOLDEN=1 rewrites it) -->`, end: `<!-- /reply-style-table:${name} -->` };
}
