/**
 * What one run of the reply-style suite observed, in the words of the doc
 * tables (exit, stop reason, what the run saved), and the small pieces of a
 * run's command line every surface shares.
 */
import { readFileSync } from 'node:fs';
import type { WireProvider } from '../helpers/scripted-llm-server.js';

/** What an in-process run of a command left: what it printed, the error it threw (null when none), and its saved trace (null when none). */
export interface Run {
  stdout: string;
  error: { code?: string; message: string } | null;
  trace: any;
}

/** The exit of an in-process run: 0, or the error's code (and the model client's cause). */
export function exitOf(error: Run['error']): string {
  if (!error) return '0';
  const cause = (error as { details?: { cause?: unknown } }).details?.cause;
  return `1 (\`${error.code ?? 'error'}\`${typeof cause === 'string' ? `, ${cause}` : ''})`;
}

/** Short client limits for the hang rows: a 0.2 s attempt, no retries. */
export const SHORT_TIMEOUT = ['--llm-timeout', '0.2', '--llm-retries', '0'];

/** The `--model` flag naming the scripted endpoint's model for `provider`'s wire format. */
export function modelArgs(provider: WireProvider): string[] {
  return ['--model', provider === 'anthropic' ? 'anthropic:claude-scripted' : 'openai-compatible:scripted-model'];
}

/** The saved trace, or null when the run wrote none. */
export function readTrace(file: string): any {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** `n` with the noun, singular or plural. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What a localization trace saved, in words. */
export function localizeSaved(trace: any): string {
  if (!trace) return 'nothing';
  const steps = trace.steps as Array<{ cut?: boolean; reasoning?: string; notes?: string[]; repeated?: number; action: string; isError: boolean }>;
  const parts = [`answer from \`${trace.answerSource}\`, ${count(steps.length, 'step')}`];
  if (trace.error) parts.push('the error');
  if (steps.some((s) => s.cut)) parts.push('cut steps marked `cut`');
  if (steps.some((s) => s.reasoning)) parts.push('the reasoning in `reasoning`');
  const notes = steps.flatMap((s) => s.notes ?? []);
  if (notes.some((n) => /counted locally/.test(n))) parts.push('tokens counted locally, noted');
  if (notes.some((n) => /omitting temperature|max_completion_tokens/.test(n))) parts.push('the learned request profile, noted');
  const repeats = steps.filter((s) => s.repeated !== undefined).length;
  if (repeats > 0) parts.push(`${count(repeats, 'repeat')} refused`);
  const formatErrors = trace.stats.formatErrors as number;
  if (formatErrors > 0) parts.push(count(formatErrors, 'format error'));
  if (trace.stats.toolErrors > 0) parts.push(count(trace.stats.toolErrors, 'tool error'));
  return parts.join('; ');
}

/** The agent's stop reason as a LocBench prediction records it (`answered`, `stepBudgetHit`, `tokenBudgetHit`). */
export function stopOfTimings(t: Record<string, number>): string {
  if (t.answered === 1) return '`answered`';
  if (t.stepBudgetHit === 1) return '`step-budget` (`answered: 0`)';
  if (t.tokenBudgetHit === 1) return '`token-budget` (`answered: 0`)';
  return 'not answered (`answered: 0`)';
}

/** What an ask trace saved, in words. */
export function askSaved(trace: any): string {
  if (!trace) return 'nothing';
  const calls = trace.roleCalls as Array<{ ok: boolean; cut?: boolean; reasoning?: string; note?: string; tokensCounted?: string }>;
  const parts = [count(calls.length, 'model call')];
  if (trace.llmError) parts.push('the error in `llmError`');
  if (trace.answer?.fallback) parts.push('a marked fallback answer');
  if (calls.some((c) => c.cut)) parts.push('cut replies marked `cut`');
  if (calls.some((c) => !c.ok)) parts.push(count(calls.filter((c) => !c.ok).length, 'unusable reply', 'unusable replies'));
  if (calls.some((c) => c.reasoning)) parts.push('the reasoning in `reasoning`');
  if (calls.some((c) => c.tokensCounted === 'local')) parts.push('tokens counted locally');
  if (calls.some((c) => /max_completion_tokens|temperature/.test(c.note ?? ''))) parts.push('the learned request profile, noted');
  const rejected = (trace.nodes as Array<{ rejected: unknown[] }> | undefined)?.reduce((n, node) => n + node.rejected.length, 0) ?? 0;
  if (rejected > 0) parts.push(count(rejected, 'rejected proposal'));
  return parts.join('; ');
}
