/**
 * How the tree is shown to the model. The root-to-node path is the memory:
 * recent steps with their evidence excerpts, older steps with span labels
 * only, so prompts stay bounded however deep the search goes. Sibling
 * branches are summarised by action, score and what they found.
 */
import { describeAction } from './actions.js';
import { spanLabel } from './evidence.js';
import type { TraceEvidence, TraceNode } from './trace-types.js';

/** Steps at the end of the path shown with full excerpts. */
const RECENT_STEPS = 2;
/** Lines of excerpt kept for older steps. */
const OLD_EXCERPT_LINES = 3;

/** One evidence item for a prompt: its span label, symbol, and (optionally trimmed) excerpt. */
export function renderEvidence(e: TraceEvidence, maxLines?: number): string {
  const head = `${spanLabel(e)}${e.symbol ? ` (${e.symbol})` : ''}`;
  let lines = e.excerpt.split('\n');
  if (maxLines !== undefined && lines.length > maxLines) lines = [...lines.slice(0, maxLines), '   …'];
  return [head, ...lines.map((l) => `    ${l}`)].join('\n');
}

/** A one-line label list of evidence: `a.py:1-5 (f), b.py:3-9`. */
export function evidenceLabels(evidence: readonly TraceEvidence[], max = 6): string {
  if (evidence.length === 0) return 'nothing';
  const shown = evidence.slice(0, max).map((e) => `${spanLabel(e)}${e.symbol ? ` (${e.symbol})` : ''}`);
  return shown.join(', ') + (evidence.length > max ? `, +${evidence.length - max} more` : '');
}

/**
 * The trajectory root → node (root excluded) as numbered steps. Node ids are
 * not shown: the prompt must not depend on tree bookkeeping, only on content.
 */
export function renderTrajectory(path: readonly TraceNode[]): string {
  const steps = path.filter((n) => n.action !== null);
  if (steps.length === 0) return '(no steps yet: this is the start of the search)';
  return steps
    .map((node, i) => {
      const recent = i >= steps.length - RECENT_STEPS;
      const lines = [`Step ${i + 1}: ${describeAction(node.action!)} — ${scoreText(node)}`];
      if (node.toolError) lines.push(`  tool error: ${(node.toolText ?? '').slice(0, 300)}`);
      else if (node.evidence.length === 0 && node.action!.type !== 'Finish') lines.push('  found nothing new');
      for (const e of node.evidence) lines.push(indent(renderEvidence(e, recent ? undefined : OLD_EXCERPT_LINES), 2));
      if (node.evaluation?.followUp) lines.push(`  suggested next: ${node.evaluation.followUp}`);
      return lines.join('\n');
    })
    .join('\n');
}

/** Branches already tried next to the current point, one line each. */
export function renderBranches(nodes: readonly TraceNode[]): string {
  if (nodes.length === 0) return '(none)';
  return nodes
    .map((n) => `- ${describeAction(n.action!)} — ${scoreText(n)}; found: ${n.toolError ? 'tool error' : evidenceLabels(n.evidence, 4)}`)
    .join('\n');
}

function scoreText(node: TraceNode): string {
  return node.score === null ? 'not scored' : `score ${node.score}/100`;
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((l) => pad + l)
    .join('\n');
}
