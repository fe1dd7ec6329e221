/**
 * The one prompt template shared by all four interfaces: only the tools
 * section differs (it lists exactly the interface's tools), so differences
 * between interfaces in an experiment come from the tools, not the wording.
 */
import type { AgentInterface } from './agent-interfaces.js';

/** Everything the template needs. */
export interface SystemPromptInput {
  iface: AgentInterface;
  /** Rendered specs, one per tool in `iface.tools` order (see tool-specs.ts). */
  toolSpecs: readonly string[];
  maxSteps: number;
  /** Per-run token budget, when there is one. */
  maxTokens?: number;
  /** How many files and functions the answer should rank at most. */
  answerFiles?: number;
  answerFunctions?: number;
}

/** The system prompt: role, action protocol, tools, answer format, budget. */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const { iface } = input;
  const names = iface.tools.join(', ');
  const budget = [
    `You have at most ${input.maxSteps} steps; every reply is one step.`,
    input.maxTokens ? `The whole task may use at most ${input.maxTokens} tokens (prompt and replies of every step).` : null,
    'Each observation says how much budget is left. Answer before it runs out: a run that ends without an answer keeps only the files you looked at.',
  ].filter(Boolean);
  return [
    'You are a code localization agent. You get an issue reported against a software repository and must find the code that has to change to resolve it: the files, and the functions, methods or classes in them. You cannot edit anything: you explore and read, then answer.',
    '',
    '## How to act',
    'Each reply has a short thought about what to do next, followed by EXACTLY ONE action in a fenced block. After each action you see its output (the observation) and act again.',
    '',
    'To call a tool, write a `tool` block with a JSON object naming the tool and its arguments:',
    '```tool',
    '{"tool": "<tool name>", "args": {"<argument>": "<value>"}}',
    '```',
    'To run a shell command, write a `bash` block holding one command line:',
    '```bash',
    'grep -rn "def parse_config" --include="*.py" .',
    '```',
    'When you know where the change belongs, write an `answer` block. It ends the task:',
    '```answer',
    '{"files": ["path/to/file.py"], "functions": ["path/to/file.py:ClassName.method_name", "path/to/other.py:function_name"]}',
    '```',
    '',
    '## Tools',
    `You have exactly these tools: ${names}. No other tool exists.`,
    '',
    input.toolSpecs.join('\n\n'),
    '',
    '## Answer',
    `- "files": repository-relative paths of the files to change, most likely first (up to ${input.answerFiles ?? 5}).`,
    `- "functions": the functions, methods or classes to change, most likely first (up to ${input.answerFunctions ?? 10}): ` +
      '`path:Class.method` for a method, `path:function` for a top-level function, `path:Class` for a change to the class itself.',
    '- Paths are relative to the repository root, exactly as the tools and the shell show them.',
    '- Rank by how likely each location needs editing; put what you verified by reading the code first.',
    '',
    '## Budget',
    ...budget,
  ].join('\n');
}

/** The first user message: the issue, and where the repository is. */
export function buildTaskMessage(issue: string): string {
  return [
    '<issue>',
    issue.trim(),
    '</issue>',
    '',
    "Find the code locations that must change to resolve this issue. The repository root is the shell's current directory.",
  ].join('\n');
}
