/**
 * The ReAct baseline: one conversation in which the model alternates a
 * thought and an action over the same tools the search uses, reads each
 * observation, and finishes with an answer. Evidence is collected from the
 * tool data exactly as in the search, so the answer's citations are checked
 * the same way. (src/agents/localize/ has no reusable loop yet; this one is
 * deliberately small.)
 */
import * as z from '../../zod-mini.js';
import type { ChatMessage } from '../../llm/index.js';
import { ACTION_DESCRIPTIONS, ACTION_TYPES, describeAction, normaliseActionName, parseAction } from './actions.js';
import type { AskSettings } from './ask-settings.js';
import { executeAction, type ExecutionEnvironment } from './execution-role.js';
import { toolCallLines } from './planning-role.js';
import { callJsonRole, type RoleRuntime } from './role-caller.js';
import { RepeatGuard, repeatRefusal } from './repeat-guard.js';
import { SearchStop } from './run-budget.js';
import type { StopReason, TraceEvidence, TraceReactStep } from './trace-types.js';

/** Longest observation sent back to the model. */
const MAX_OBSERVATION_CHARS = 3000;

const REACT_SYSTEM = `[role: react]
You answer a question about a code repository by using tools, one step at a time.
Each turn, think about what you know and what is missing, then call one action:
${ACTION_TYPES.filter((t) => t !== 'Finish')
  .map((t) => `- ${ACTION_DESCRIPTIONS[t]}`)
  .join('\n')}
- Finish {"answer": the final answer in Markdown} — when you have seen the code that answers the question.
In the answer, cite the code behind each claim as path:start-end (e.g. \`parse_args\` (src/app/cli.py:10-30)), using only lines you have seen.
Reply with one JSON object only: {"thought": "...", "action": "FindFunction", "args": {"name": "..."}}`;

/** One ReAct turn. */
export const ReactTurnSchema = z.object({
  thought: z._default(z.string(), ''),
  action: z.string().check(z.minLength(1)),
  args: z._default(z.record(z.string(), z.unknown()), {}),
});

/**
 * A reply of native tool calls read as a ReAct turn: the first call is the
 * action (one action a turn; the record notes the others), the text before
 * the calls the thought. Any reply that names an `action` is unchanged.
 */
export function toolCallsAsTurn(text: string): string {
  if (/"action"\s*:/i.test(text)) return text;
  const [first] = toolCallLines(text);
  if (!first) return text;
  const thought = text.slice(0, Math.max(0, text.indexOf('{"name"'))).trim();
  return JSON.stringify({ thought, action: first.action, args: first.args });
}

/** What the loop produced. */
export interface ReactOutcome {
  steps: TraceReactStep[];
  evidence: TraceEvidence[];
  /** The answer written with Finish, if the model finished. */
  draft: string | null;
  stopReason: StopReason;
}

/** Runs the ReAct loop for at most `settings.iterations` steps; never throws for model or tool trouble. */
export async function runReactAgent(input: { question: string; rt: RoleRuntime; exec: ExecutionEnvironment; settings: AskSettings }): Promise<ReactOutcome> {
  const { rt, settings } = input;
  const messages: ChatMessage[] = [
    { role: 'system', content: REACT_SYSTEM },
    { role: 'user', content: `Question: ${input.question}` },
  ];
  const steps: TraceReactStep[] = [];
  const evidence: TraceEvidence[] = [];
  const repeats = new RepeatGuard();
  try {
    for (let step = 1; step <= settings.iterations; step++) {
      const stop = rt.budget.searchStop();
      if (stop) return { steps, evidence, draft: null, stopReason: stop };
      const reply = await callJsonRole(
        rt,
        { role: 'react', nodeId: step, iteration: step, messages, temperature: settings.answerTemperature, maxTokens: settings.maxReplyTokens * 2 },
        ReactTurnSchema,
        toolCallsAsTurn,
      );
      if (!reply.ok) return { steps, evidence, draft: null, stopReason: 'exhausted' };
      const turn = reply.value;
      messages.push({ role: 'assistant', content: JSON.stringify(turn) });
      const answer = turn.args.answer;
      if (normaliseActionName(turn.action) === 'Finish' && typeof answer === 'string' && answer.trim() !== '') {
        steps.push({ step, thought: turn.thought, action: null, observation: '(finished)', evidence: [] });
        return { steps, evidence, draft: answer.trim(), stopReason: 'finish' };
      }
      const parsed = parseAction(turn.action, turn.args, turn.thought);
      let observation: string;
      let found: TraceEvidence[] = [];
      const seen = parsed.ok && parsed.action.type !== 'Finish' ? repeats.see(parsed.action.key) : null;
      if (!parsed.ok) observation = `Invalid action: ${parsed.reason}. Use one of the actions listed, with JSON args.`;
      else if (parsed.action.type === 'Finish') observation = 'Finish needs {"answer": "..."} with the full answer.';
      else if (seen?.refuse) observation = repeatRefusal(describeAction(parsed.action), seen.times);
      else {
        const result = await executeAction(input.exec, parsed.action, evidence);
        found = result.evidence;
        evidence.push(...found);
        observation = result.toolText ?? '(no output)';
      }
      if (observation.length > MAX_OBSERVATION_CHARS) observation = `${observation.slice(0, MAX_OBSERVATION_CHARS)}\n… (observation cut)`;
      steps.push({ step, thought: turn.thought, action: parsed.ok ? parsed.action : null, observation, evidence: found, ...(seen?.refuse ? { repeated: seen.times } : {}) });
      const label = parsed.ok ? describeAction(parsed.action) : turn.action;
      messages.push({ role: 'user', content: `Observation from ${label}:\n${observation}` });
    }
    return { steps, evidence, draft: null, stopReason: 'iterations' };
  } catch (error) {
    if (error instanceof SearchStop) return { steps, evidence, draft: null, stopReason: error.reason };
    throw error;
  }
}
