/**
 * The text protocol between the agent loop and any chat model (no native
 * function calling needed): every assistant turn holds exactly one action in
 * a fenced block — ```tool (JSON: tool + args), ```bash (one command line) or
 * ```answer (the final JSON). Models drift from the format, so a few close
 * variants are read too (```sh, ```json blocks whose keys say what they are,
 * `name`/`arguments` for `tool`/`args`, a missing closing fence at the end).
 */
import { z } from 'zod';
import { parseJsonReply, type JsonReplyError } from '../../llm/index.js';
import { AnswerSchema, type AnswerInput } from './answer-format.js';

/** One parsed assistant turn. */
export type AgentAction =
  | { kind: 'tool'; tool: string; args: unknown }
  | { kind: 'bash'; command: string }
  | { kind: 'answer'; answer: AnswerInput }
  /** An answer block whose JSON is unusable; `error.correction` tells the model what to fix. */
  | { kind: 'bad-answer'; error: JsonReplyError }
  /** No action, several actions, or an unreadable tool call; `reason` is shown to the model. */
  | { kind: 'format-error'; reason: string };

const BASH_LANGS = new Set(['bash', 'sh', 'shell', 'console', 'zsh']);

const ToolCallSchema = z
  .object({
    tool: z.string().min(1).optional(),
    name: z.string().min(1).optional(),
    args: z.unknown().optional(),
    arguments: z.unknown().optional(),
    input: z.unknown().optional(),
    parameters: z.unknown().optional(),
  })
  .refine((call) => call.tool !== undefined || call.name !== undefined, { message: 'name the tool: {"tool": "<name>", "args": {...}}' });

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

/** What kind of action a ```json / unlabeled block holds, by its keys; null when it holds none. */
function sniffJson(body: string): 'tool' | 'answer' | null {
  const trimmed = body.trim();
  if (!trimmed.startsWith('{')) return null;
  if (/"(tool|name)"\s*:/.test(trimmed)) return 'tool';
  if (/"(files|functions|found_files|found_entities|found_functions|entities)"\s*:/.test(trimmed)) return 'answer';
  return null;
}

const FORMAT_HELP =
  'Reply with a short thought and then exactly one action: a ```tool block with {"tool": "<name>", "args": {...}}, ' +
  'a ```bash block with one command, or an ```answer block with {"files": [...], "functions": [...]}.';

/** Reads the one action of an assistant turn. Never throws. */
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
  if (actions.length === 0) return { kind: 'format-error', reason: `No action found. ${FORMAT_HELP}` };
  if (actions.length > 1) {
    return { kind: 'format-error', reason: `Found ${actions.length} actions in one reply; give exactly one per reply (you will see its output before the next). ${FORMAT_HELP}` };
  }
  const action = actions[0]!;
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
  const call = parsed.value;
  const tool = (call.tool ?? call.name)!;
  const args = call.args ?? call.arguments ?? call.input ?? call.parameters ?? {};
  if (tool === 'bash') {
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
