/**
 * Answer synthesis with checked citations. The answer is written from the
 * collected evidence (temperature 0), every cited span is re-read and checked
 * (exists, lies inside the file, contains the names attributed to it), and a
 * draft with a bad citation — or none — gets one revision round. Whatever is
 * still bad after that is removed from the text, never shipped, and the claim
 * it supported is marked `[unverified]`; if no valid
 * citation is left, the top evidence spans are appended as sources. When the
 * model cannot be asked any more (budget, outage), the answer falls back to a
 * checked list of the evidence.
 */
import { answerMessages, revisionMessages } from './answer-prompts.js';
import { cleanAnswerText } from './answer-text.js';
import type { CheckedCitation, CitationChecker } from './citation-check.js';
import { markUnverified, UNVERIFIED_MARK } from './citations.js';
import { spanLabel } from './evidence.js';
import { questionType, TYPE_GUIDANCE, typeProblem } from './question-type.js';
import { callTextRole, type RoleReply, type RoleRuntime, type TextFailure } from './role-caller.js';
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

/** A citation is supported when its span overlaps a span of the evidence the answer was written from. */
function supported(c: TraceCitation, evidence: readonly TraceEvidence[]): boolean {
  return evidence.some((e) => e.path === c.path && e.startLine <= c.endLine && c.startLine <= e.endLine);
}

/**
 * The checker's verdicts, plus support: a citation that exists but lies
 * outside every evidence span was not read by the search, so nothing backs
 * what the answer says about it.
 */
async function checkSupported(checker: CitationChecker, text: string, evidence: readonly TraceEvidence[]): Promise<CheckedCitation[]> {
  const checked = await checker.check(text);
  for (const c of checked) {
    if (c.verdict.valid && !c.pathOnly && !supported(c.verdict, evidence)) {
      c.verdict = { ...c.verdict, valid: false, reason: 'not in the evidence the answer was written from' };
    }
  }
  return checked;
}

/** The shipped answer and what happened to its citations. */
export interface SynthesisResult {
  text: string;
  citations: TraceCitation[];
  dropped: TraceCitation[];
  draftProblems: TraceCitation[];
  revised: boolean;
  fallback: boolean;
  /** Why the model's answer could not be used, when that made this a fallback. */
  failure?: TextFailure;
  /** The answer's problem for its question type that the revision round was asked to fix (kept when it stayed). */
  typeProblem?: string | null;
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
  const type = questionType(input.question);
  let text = input.draft === undefined ? null : cleanAnswerText(input.draft);
  if (text === null) {
    const reply = await safely(() =>
      callTextRole(env.rt, {
        role: 'answer',
        nodeId: null,
        iteration: env.iteration,
        messages: answerMessages(input.question, input.evidence, env.repository, TYPE_GUIDANCE[type]),
        temperature: env.temperature,
        maxTokens: env.maxTokens,
      }),
    );
    if (!reply.ok) return fallbackAnswer(env, input.evidence, reply.error, reply.failure);
    text = reply.value;
  }
  if (!env.checker) return { text, citations: [], dropped: [], draftProblems: [], revised: false, fallback: false };

  let checked = await checkSupported(env.checker, text, input.evidence);
  let draftProblems: TraceCitation[] = [];
  let revised = false;
  const bad = checked.filter((c) => !c.verdict.valid);
  const spans = (list: CheckedCitation[]) => list.filter((c) => !c.pathOnly);
  let problem = typeProblem(type, text, spans(checked).filter((c) => c.verdict.valid).length);
  if (bad.length > 0 || spans(checked).length === 0 || problem) {
    draftProblems = bad.map((c) => c.verdict);
    const reply = await safely(() =>
      callTextRole(env.rt, {
        role: 'revision',
        nodeId: null,
        iteration: env.iteration,
        messages: revisionMessages(input.question, text!, draftProblems, input.evidence, spans(checked).length === 0, problem),
        temperature: env.temperature,
        maxTokens: env.maxTokens,
      }),
    );
    // A revision that failed (cut off, empty, budget) leaves the whole first draft in place.
    if (reply.ok) {
      text = reply.value;
      checked = await checkSupported(env.checker, text, input.evidence);
      problem = typeProblem(type, text, spans(checked).filter((c) => c.verdict.valid).length);
      revised = true;
    }
  }
  const stillBad = checked.filter((c) => !c.verdict.valid);
  // The claim a bad citation supported stays visible as unverified: removing only its source would make it look checked.
  text = markUnverified(text, stillBad).trim();
  if (stillBad.length > 0) text += `\n\n${UNVERIFIED_MARK}: the code cited for ${stillBad.length === 1 ? 'this claim' : 'these claims'} did not check out, so ${stillBad.length === 1 ? 'the citation was' : `the ${stillBad.length} citations were`} removed.`;
  // A path named without lines is checked for existence only: it is not a checked span.
  const citations = unique(checked.filter((c) => c.verdict.valid && !c.pathOnly).map((c) => c.verdict));
  if (citations.length === 0) {
    const sources = await checkedSources(env.checker, input.evidence);
    if (sources.length > 0) {
      text += `\n\nSources: ${sources.map((s) => `\`${s.text}\``).join(', ')}`;
      citations.push(...sources);
    }
  }
  return { text, citations, dropped: unique(stillBad.map((c) => c.verdict)), draftProblems, revised, fallback: false, typeProblem: problem };
}

/** An answer made of the best evidence when no model answer can be had. */
async function fallbackAnswer(env: SynthesisEnvironment, evidence: readonly TraceEvidence[], reason: string, failure?: TextFailure): Promise<SynthesisResult> {
  const sources = env.checker ? await checkedSources(env.checker, evidence, 5) : [];
  const lines = [`No answer could be written (${reason}).`];
  if (failure) lines.push('This is a fallback, not an answer: the model\'s reply could not be used.');
  if (sources.length > 0) {
    lines.push('The most relevant code found:');
    for (const s of sources) {
      const e = evidence.find((x) => spanLabel(x) === s.text);
      lines.push(`- \`${s.text}\`${e?.symbol ? ` — ${e.symbol}` : ''}`);
    }
  }
  return { text: lines.join('\n'), citations: sources, dropped: [], draftProblems: [], revised: false, fallback: true, ...(failure ? { failure } : {}) };
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
async function safely(call: () => Promise<RoleReply<string> & { failure?: TextFailure }>): Promise<RoleReply<string> & { failure?: TextFailure }> {
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
