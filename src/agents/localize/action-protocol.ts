/**
 * The text protocol between the agent loop and any chat model (no native
 * function calling needed): every assistant turn holds exactly one action in
 * a fenced block — ```tool (JSON: tool + args), ```bash (one command line) or
 * ```answer (the final JSON). Models drift from the format, so a few close
 * variants are read too (```sh, ```json blocks whose keys say what they are,
 * `name`/`arguments` for `tool`/`args`, a missing closing fence at the end).
 */
import * as z from '../../zod-mini.js';
import { jsonObjectSpans, parseJsonReply, type JsonReplyError } from '../../llm/index.js';
import { AnswerSchema, type AnswerInput } from './answer-format.js';

/**
 * One parsed assistant turn. `note` (on a runnable action) tells the model
 * what the reader did beyond the plain protocol: which action of several was
 * taken, and why.
 */
export type AgentAction =
  | { kind: 'tool'; tool: string; args: unknown; note?: string }
  | { kind: 'bash'; command: string; note?: string }
  | { kind: 'answer'; answer: AnswerInput; note?: string }
  /** An answer block whose JSON is unusable; `error.correction` tells the model what to fix. */
  | { kind: 'bad-answer'; error: JsonReplyError }
  /** No action, several actions, or an unreadable tool call; `reason` is shown to the model. */
  | { kind: 'format-error'; reason: string };

const BASH_LANGS = new Set(['bash', 'sh', 'shell', 'console', 'zsh']);

/** Key spellings models use for the tool name and its arguments, lower-cased. */
const TOOL_KEYS = ['tool', 'name', 'action', 'function', 'tool_name'];
const ARG_KEYS = ['args', 'arguments', 'input', 'parameters', 'params', 'action_input', 'tool_input'];

/** Lower-cases the top-level keys (`"Tool"`, `"Args"`) and maps the aliases onto `tool` / `args`. */
function canonicalToolCall(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const lower = new Map(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), v]));
  const tool = TOOL_KEYS.map((k) => lower.get(k)).find((v) => typeof v === 'string');
  const args = ARG_KEYS.map((k) => lower.get(k)).find((v) => v !== undefined);
  return { ...(tool !== undefined ? { tool } : {}), ...(args !== undefined ? { args } : {}) };
}

const ToolCallSchema = z.preprocess(
  canonicalToolCall,
  z.object({
    tool: z.string({ message: 'name the tool: {"tool": "<name>", "args": {...}}' }).check(z.minLength(1)),
    args: z.optional(z.unknown()),
  }),
);

interface FencedBlock {
  lang: string;
  body: string;
}

/** Fenced blocks in order; an unclosed last fence runs to the end of the text. */
export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const fence = /```[ \t]*([A-Za-z0-9_+.-]*)[^\n]*\n([\s\S]*?)(?:```|$(?![\s\S]))/g;
  for (const match of text.matchAll(fence)) blocks.push({ lang: match[1]!.toLowerCase(), body: match[2]!.replace(/\n$/, '') });
  return blocks;
}

/** What kind of action a ```json / unlabeled block (or bare object) holds, by its keys (any case); null when it holds none. */
function sniffJson(body: string): 'tool' | 'answer' | null {
  const trimmed = body.trim();
  if (!trimmed.startsWith('{')) return null;
  if (new RegExp(`"(${TOOL_KEYS.join('|')})"\\s*:`, 'i').test(trimmed)) return 'tool';
  if (/"(files|functions|found_files|found_entities|found_functions|entities)"\s*:/i.test(trimmed)) return 'answer';
  return null;
}

const FORMAT_HELP =
  'Reply with a short thought and then exactly one action: a ```tool block with {"tool": "<name>", "args": {...}}, ' +
  'a ```bash block with one command, or an ```answer block with {"files": [...], "functions": [...]}.';

/**
 * Reads the action of an assistant turn. Never throws. Fenced blocks are
 * read first (```tool, ```bash, ```answer, and ```json or unlabeled blocks by
 * their keys); without any, bare JSON objects in the prose are sniffed the
 * same way. When a reply holds several actions the first is taken and a
 * `note` says so (the model sees it with the observation): running one and
 * telling the model costs nothing, refusing both wastes the step.
 */
/** `Action: NAME` then `Action Input: …` on the next line (LangChain's ReAct format). */
const LANGCHAIN_ACTION = /^[ \t]*Action:[ \t]*`?([A-Za-z_][\w-]*)`?[ \t]*\r?\n[ \t]*Action Input:([\s\S]*)$/m;

export function parseAction(text: string): AgentAction {
  const actions: Array<{ kind: 'tool' | 'bash' | 'answer'; body: string }> = [];
  for (const block of fencedBlocks(text)) {
    if (block.lang === 'tool' || block.lang === 'answer') actions.push({ kind: block.lang, body: block.body });
    else if (BASH_LANGS.has(block.lang)) actions.push({ kind: 'bash', body: block.body });
    else if (block.lang === '' || block.lang === 'json') {
      const kind = sniffJson(block.body);
      if (kind) actions.push({ kind, body: block.body });
    }
  }
  if (actions.length === 0) {
    for (const span of jsonObjectSpans(text)) {
      const kind = sniffJson(span);
      if (kind) actions.push({ kind, body: span });
    }
  }
  if (actions.length === 0) {
    // LangChain ReAct lines (`Action: search` / `Action Input: {...}`), as models tuned on that format write them.
    const line = LANGCHAIN_ACTION.exec(text);
    const input = line ? jsonObjectSpans(line[2]!).next().value : undefined;
    if (line && input) actions.push({ kind: 'tool', body: `{"tool": ${JSON.stringify(line[1])}, "args": ${input}}` });
  }
  if (actions.length === 0) {
    if (text.trim() === '') return { kind: 'format-error', reason: `Your reply was empty. ${FORMAT_HELP}` };
    return { kind: 'format-error', reason: `No action found. ${FORMAT_HELP}` };
  }
  const action = readOne(actions[0]!);
  if (actions.length > 1 && action.kind !== 'format-error' && action.kind !== 'bad-answer') {
    action.note = `Your reply held ${actions.length} actions; only the first (${actions[0]!.kind}) was taken. Give exactly one action per reply: you see its output before choosing the next.`;
  }
  return action;
}

function readOne(action: { kind: 'tool' | 'bash' | 'answer'; body: string }): AgentAction {
  if (action.kind === 'bash') {
    const command = action.body.replace(/^\s*\$\s+/, '').trim();
    if (!command) return { kind: 'format-error', reason: 'The bash block is empty; put one command line in it.' };
    return { kind: 'bash', command };
  }
  if (action.kind === 'answer') return readAnswer(action.body);
  return readToolCall(action.body);
}

function readAnswer(body: string): AgentAction {
  const parsed = parseJsonReply(body, AnswerSchema);
  return parsed.ok ? { kind: 'answer', answer: parsed.value } : { kind: 'bad-answer', error: parsed.error };
}

function readToolCall(body: string): AgentAction {
  const parsed = parseJsonReply(body, ToolCallSchema);
  if (!parsed.ok) return { kind: 'format-error', reason: `The tool call could not be read: ${parsed.error.message}. ${FORMAT_HELP}` };
  const { tool, args = {} } = parsed.value;
  if (tool.toLowerCase() === 'bash') {
    const command = args && typeof args === 'object' ? (args as Record<string, unknown>).command ?? (args as Record<string, unknown>).cmd : undefined;
    if (typeof command === 'string' && command.trim()) return { kind: 'bash', command: command.trim() };
    return { kind: 'format-error', reason: 'Run shell commands in a ```bash block holding the command line.' };
  }
  return { kind: 'tool', tool, args };
}

/**
 * Reads the reply to a corrective message: an answer block, or any JSON in
 * the text that matches the answer schema (the correction asks for the bare
 * object). Returns the parsed answer or the error.
 */
export function parseCorrectedAnswer(text: string): { ok: true; answer: AnswerInput } | { ok: false; error: JsonReplyError } {
  const block = fencedBlocks(text).find((b) => b.lang === 'answer');
  const parsed = parseJsonReply(block ? block.body : text, AnswerSchema);
  return parsed.ok ? { ok: true, answer: parsed.value } : { ok: false, error: parsed.error };
}
