/**
 * Repeat detection for the agent loops that let a model call tools freely
 * (the localization agent and the ReAct baseline): the same action — same
 * tool, same arguments — asked for a third time in a row is refused, not
 * run, and the model is told why. Its output would be what the model has
 * already read twice, so running it only spends the budget. (The MCTS never
 * needs this: planning refuses any action already on the trajectory or
 * tried by a sibling, see planning-role.ts.)
 */

/** Identical actions in a row that still run; the next identical one is refused. */
export const MAX_IDENTICAL_ACTIONS = 2;

/** Counts identical actions in a row. */
export class RepeatGuard {
  private last: string | null = null;
  private count = 0;

  /**
   * Records the action with key `key` and says how many times in a row it
   * has now been asked for (1 for a new one) and whether it must be refused.
   * A different action resets the count.
   */
  see(key: string): { times: number; refuse: boolean } {
    this.count = key === this.last ? this.count + 1 : 1;
    this.last = key;
    return { times: this.count, refuse: this.count > MAX_IDENTICAL_ACTIONS };
  }
}

/** A stable key for a tool call: the tool name and its arguments as JSON with sorted keys. */
export function toolCallKey(tool: string, args: unknown): string {
  return `${tool.toLowerCase()} ${canonicalJson(args)}`;
}

/** The note sent to the model instead of the output of a refused repeat. */
export function repeatRefusal(label: string, times: number): string {
  return (
    `Refused: this is the same action (${label}) ${times} times in a row, so it was not run again; its output is what you already have above. ` +
    'Use a different tool or different arguments, or reply with your answer.'
  );
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
