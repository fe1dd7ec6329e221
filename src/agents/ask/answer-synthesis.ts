/**
 * Answer synthesis with checked citations. The answer is written from the
 * collected evidence (temperature 0), every cited span is re-read and checked
 * (exists, lies inside the file, contains the names attributed to it), and a
 * draft with a bad citation — or none — gets one revision round. Whatever is
 * still bad after that is removed from the text, never shipped; if no valid
 * citation is left, the top evidence spans are appended as sources. When the
 * model cannot be asked any more (budget, outage), the answer falls back to a
 * checked list of the evidence.
 */
import { answerMessages, revisionMessages } from './answer-prompts.js';
import type { CitationChecker } from './citation-check.js';
import { removeCitations } from './citations.js';
import { spanLabel } from './evidence.js';
import { callTextRole, type RoleReply, type RoleRuntime } from './role-caller.js';
import { SearchStop } from './run-budget.js';
import type { TraceCitation, TraceEvidence } from './trace-types.js';

/** What synthesis runs with. */
export interface SynthesisEnvironment {
  rt: RoleRuntime;
  /** Null when there is no repository (direct baseline): nothing to check. */
  checker: CitationChecker | null;
  temperature: number;
  maxTokens: number;
  /** Repository name shown to the model. */
  repository: string | null;
  iteration: number;
}

/** The shipped answer and what happened to its citations. */
export interface SynthesisResult {
  text: string;
  citations: TraceCitation[];
  dropped: TraceCitation[];
  draftProblems: TraceCitation[];
  revised: boolean;
  fallback: boolean;
}

/** Sources appended when an answer is left without a valid citation. */
const MAX_SOURCES = 3;

/**
 * Writes (or, with `draft`, takes) an answer and ships it only with verified
 * citations; see the module comment for the steps. Never throws for model
 * trouble: budget stops and failed calls lead to the fallback answer.
 */
export async function synthesizeAnswer(
  env: SynthesisEnvironment,
  input: { question: string; evidence: readonly TraceEvidence[]; draft?: string },
): Promise<SynthesisResult> {
  let text = input.draft ?? null;
  if (text === null) {
    const reply = await safely(() =>
      callTextRole(env.rt, {
        role: 'answer',
        nodeId: null,
        iteration: env.iteration,
        messages: answerMessages(input.question, input.evidence, env.repository),
        temperature: env.temperature,
        maxTokens: env.maxTokens,
      }),
    );
    if (!reply.ok) return fallbackAnswer(env, input.evidence, reply.error);
    text = reply.value;
  }
  if (!env.checker) return { text, citations: [], dropped: [], draftProblems: [], revised: false, fallback: false };

  let checked = await env.checker.check(text);
  let draftProblems: TraceCitation[] = [];
  let revised = false;
  const bad = checked.filter((c) => !c.verdict.valid);
  if (bad.length > 0 || checked.length === 0) {
    draftProblems = bad.map((c) => c.verdict);
    const reply = await safely(() =>
      callTextRole(env.rt, {
        role: 'revision',
        nodeId: null,
        iteration: env.iteration,
        messages: revisionMessages(input.question, text!, draftProblems, input.evidence, checked.length === 0),
        temperature: env.temperature,
        maxTokens: env.maxTokens,
      }),
    );
    if (reply.ok) {
      text = reply.value;
      checked = await env.checker.check(text);
      revised = true;
    }
  }
  const stillBad = checked.filter((c) => !c.verdict.valid);
  text = removeCitations(text, stillBad).trim();
  const citations = unique(checked.filter((c) => c.verdict.valid).map((c) => c.verdict));
  if (citations.length === 0) {
    const sources = await checkedSources(env.checker, input.evidence);
    if (sources.length > 0) {
      text += `\n\nSources: ${sources.map((s) => `\`${s.text}\``).join(', ')}`;
      citations.push(...sources);
    }
  }
  return { text, citations, dropped: unique(stillBad.map((c) => c.verdict)), draftProblems, revised, fallback: false };
}

/** An answer made of the best evidence when no model answer can be had. */
async function fallbackAnswer(env: SynthesisEnvironment, evidence: readonly TraceEvidence[], reason: string): Promise<SynthesisResult> {
  const sources = env.checker ? await checkedSources(env.checker, evidence, 5) : [];
  const lines = [`No answer could be written (${reason}).`];
  if (sources.length > 0) {
    lines.push('The most relevant code found:');
    for (const s of sources) {
      const e = evidence.find((x) => spanLabel(x) === s.text);
      lines.push(`- \`${s.text}\`${e?.symbol ? ` — ${e.symbol}` : ''}`);
    }
  }
  return { text: lines.join('\n'), citations: sources, dropped: [], draftProblems: [], revised: false, fallback: true };
}

/** Top evidence spans as citations, each verified like any other. */
async function checkedSources(checker: CitationChecker, evidence: readonly TraceEvidence[], max = MAX_SOURCES): Promise<TraceCitation[]> {
  const out: TraceCitation[] = [];
  for (const e of evidence) {
    if (out.length >= max) break;
    const verdict = await checker.verify({ text: spanLabel(e), path: e.path, startLine: e.startLine, endLine: e.endLine, names: [] });
    if (verdict.valid && !out.some((o) => o.text === verdict.text)) out.push(verdict);
  }
  return out;
}

/** Runs a text role; a budget stop becomes a failed reply (the answer still has to be shipped). */
async function safely(call: () => Promise<RoleReply<string>>): Promise<RoleReply<string>> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof SearchStop) return { ok: false, error: `budget: ${error.reason}`, tokens: { input: 0, output: 0 } };
    throw error;
  }
}

function unique(citations: TraceCitation[]): TraceCitation[] {
  const seen = new Set<string>();
  return citations.filter((c) => {
    const key = `${c.path ?? c.text}:${c.startLine}-${c.endLine}:${c.names.join(',')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
