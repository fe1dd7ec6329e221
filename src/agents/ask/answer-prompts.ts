/**
 * Prompts of the answer writers: synthesis from evidence, the one revision
 * round after a citation check, and the no-repository direct baseline.
 */
import type { ChatMessage } from '../../llm/index.js';
import { renderEvidence } from './memory-render.js';
import type { TraceCitation, TraceEvidence } from './trace-types.js';

const CITATION_RULES = `Cite the code behind every claim as path:start-end using the spans given, exactly as written there (e.g. src/app/cli.py:10-30), right after the name it supports: "\`parse_args\` (src/app/cli.py:10-30) reads the flags". A span you cite must contain every \`name\` you attach to it. You may cite a narrower range inside a given span. Never invent files or line numbers. Cite at least one span.`;

/** Synthesis: answer from the evidence, with citations. */
export const ANSWER_SYSTEM = `[role: answer]
You answer a question about a code repository using only the evidence provided (numbered source excerpts).
Explain how the code works and why, naming the relevant classes, functions and files; be specific and concise.
${CITATION_RULES}
If the evidence does not cover part of the question, say which part instead of guessing.
Write the answer in Markdown prose. No preamble.`;

/** Revision: fix the citations a check rejected. */
export const REVISION_SYSTEM = `[role: revision]
You revise an answer about a code repository whose citations failed a check against the source.
Rewrite the answer so that every citation is a span from the evidence list that really contains what the answer says about it.
Remove or correct each rejected citation; keep everything else that is supported.
${CITATION_RULES}
Reply with the full revised answer in Markdown, nothing else.`;

/** Direct baseline: the model alone, no repository. */
export const DIRECT_SYSTEM = `[role: direct]
You answer a question about a software repository from your own knowledge of it; you cannot look at the code.
Explain how the relevant parts work and why, naming classes, functions and files you are confident about. Be specific and concise.
Write the answer in Markdown prose. No preamble.`;

/** The evidence block shared by synthesis and revision. */
export function renderEvidenceList(evidence: readonly TraceEvidence[]): string {
  if (evidence.length === 0) return '(no evidence was found)';
  return evidence.map((e, i) => `[E${i + 1}] ${renderEvidence(e)}`).join('\n\n');
}

/** Messages for synthesis. */
export function answerMessages(question: string, evidence: readonly TraceEvidence[], repository: string | null, guidance?: string): ChatMessage[] {
  const user = [repository ? `Repository: ${repository}` : null, `Question: ${question}`, guidance ?? null, '', 'Evidence:', renderEvidenceList(evidence)]
    .filter((l) => l !== null)
    .join('\n');
  return [
    { role: 'system', content: ANSWER_SYSTEM },
    { role: 'user', content: user },
  ];
}

/** Messages for the revision round: the draft, what was wrong with it, and the evidence again. */
export function revisionMessages(
  question: string,
  draft: string,
  problems: readonly TraceCitation[],
  evidence: readonly TraceEvidence[],
  noCitation: boolean,
  typeProblem: string | null = null,
): ChatMessage[] {
  const issues = problems.map((p) => `- ${p.text}: ${p.reason}`);
  if (noCitation) issues.push('- the answer cites no span at all; cite at least one from the evidence.');
  if (typeProblem) issues.push(`- ${typeProblem}`);
  const user = [
    `Question: ${question}`,
    '',
    'Draft answer:',
    draft,
    '',
    'Problems found by re-reading the source and the question:',
    ...issues,
    '',
    'Evidence (the spans you may cite):',
    renderEvidenceList(evidence),
  ].join('\n');
  return [
    { role: 'system', content: REVISION_SYSTEM },
    { role: 'user', content: user },
  ];
}

/** Messages for the direct baseline. */
export function directMessages(question: string, repository: string | null): ChatMessage[] {
  const user = [repository ? `Repository: ${repository}` : null, `Question: ${question}`].filter((l) => l !== null).join('\n');
  return [
    { role: 'system', content: DIRECT_SYSTEM },
    { role: 'user', content: user },
  ];
}
