/**
 * Search trees: open a saved `reponav ask --trace` file (a path on the
 * server, or a file chosen in the browser), see the MCTS tree, click a node
 * for its action, evidence, evaluation and value, and read the final answer
 * with each citation linked to its code. ReAct traces show their steps.
 */
import type { AskTrace, TraceEvidence, TraceNode } from '../../src/agents/ask/trace-types.js';
import type { TraceResponse } from '../../src/http-api/api-types.js';
import { apiGet, apiPostDocument, messageOf } from './api.js';
import { citationList, linkCitations } from './citations.js';
import { errorBox, fmt, h, linkButton, replaceChildren, type Child, pathForm } from './dom.js';
import { nav } from './navigation.js';
import { meanValue, nodeLabel, renderTree, treeLegend, valueColour } from './trace-tree.js';

export class TraceView {
  readonly element: HTMLElement;
  private readonly pathInput = h('input', { id: 'trace-path', name: 'path', placeholder: 'trace file on the server, e.g. traces/ask.json', 'aria-label': 'Trace path' });
  private readonly fileInput = h('input', { id: 'trace-file', type: 'file', accept: '.json,application/json', 'aria-label': 'Upload a trace' });
  private readonly content = h('div', { class: 'trace-content' });
  private readonly details = h('div', { class: 'panel node-details', id: 'node-details' });

  constructor() {
    const form = pathForm(this.pathInput, this.fileInput, { id: 'trace-open', label: 'Open trace' }, (path) => void this.openPath(path));
    this.fileInput.addEventListener('change', () => {
      const file = this.fileInput.files?.[0];
      if (file) void this.openUpload(file);
    });
    this.element = h('section', { id: 'view-trace', class: 'view' }, form, this.content);
    replaceChildren(this.content, h('p', { class: 'muted hint' }, 'Open the JSON written by `reponav ask --trace FILE`.'));
  }

  route(params: URLSearchParams): void {
    const path = params.get('path');
    if (path && path !== this.pathInput.value) {
      this.pathInput.value = path;
      void this.openPath(path);
    }
  }

  private async openPath(path: string): Promise<void> {
    if (!path.trim()) return void replaceChildren(this.content, errorBox('Type the path of a trace file first.'));
    await this.load(() => apiGet<TraceResponse>('trace', { path: path.trim() }));
  }

  private async openUpload(file: File): Promise<void> {
    // Validated by the server, so an upload and a path give the same messages.
    await this.load(async () => apiPostDocument<TraceResponse>('trace', await file.text(), file.name));
  }

  private async load(fetcher: () => Promise<TraceResponse>): Promise<void> {
    replaceChildren(this.content, h('p', { class: 'muted' }, 'Opening…'));
    try {
      this.render(await fetcher());
    } catch (error) {
      replaceChildren(this.content, errorBox(messageOf(error)));
    }
  }

  private render(response: TraceResponse): void {
    const { trace } = response;
    const warnings = response.warnings.map((w) => h('p', { class: 'warning' }, w));
    const main: Child[] = [];
    if (trace.nodes.length > 0) {
      const tree = renderTree(trace.nodes, {
        answerPath: trace.answerPath,
        onSelect: (node) => {
          tree.select(node.id);
          this.showNode(node, trace);
        },
      });
      main.push(h('div', { class: 'tree-layout' }, h('div', { class: 'panel tree-panel' }, treeLegend(), h('div', { class: 'tree-scroll' }, tree.element)), this.details));
      replaceChildren(this.details, h('p', { class: 'muted' }, 'Click a node to see its action, evidence and evaluation.'));
    } else if (trace.steps.length > 0) {
      main.push(this.steps(trace));
    } else {
      main.push(h('p', { class: 'muted panel' }, `This ${trace.method} trace has no search tree.`));
    }
    replaceChildren(this.content, this.header(response), warnings, main, this.answer(trace));
  }

  private header(response: TraceResponse): HTMLElement {
    const t = response.trace;
    const repo = t.repository ? `${t.repository.name}${t.repository.commit ? `@${t.repository.commit.slice(0, 10)}` : ''}` : '–';
    const facts: Array<[string, string]> = [
      ['method', t.method],
      ['model', t.modelId ?? '–'],
      ['repository', repo],
      ['stopped', t.stopReason ?? '–'],
      ['iterations', String(t.iterationsRun ?? '–')],
      ['nodes', String(t.nodes.length)],
      ['tokens', t.cost ? String(t.cost.totalTokens) : '–'],
      ['cost', t.cost?.costUsd != null ? `$${t.cost.costUsd.toFixed(4)}` : '–'],
      ['time', t.elapsedMs != null ? `${(t.elapsedMs / 1000).toFixed(1)} s` : '–'],
    ];
    return h(
      'div',
      { class: 'panel trace-head' },
      h('h2', { id: 'trace-question' }, t.question),
      h('div', { class: 'chips' }, facts.map(([k, v]) => h('span', { class: 'chip' }, h('b', null, k), ` ${v}`))),
      h('div', { class: 'muted small' }, response.source),
    );
  }

  private evidence(list: readonly TraceEvidence[]): Child {
    if (list.length === 0) return h('p', { class: 'muted' }, 'No evidence.');
    return h(
      'ul',
      { class: 'evidence' },
      list.map((e) =>
        h(
          'li',
          null,
          linkButton(`${e.path}:${e.startLine}-${e.endLine}`, () => nav().openCode({ path: e.path, start: e.startLine, end: e.endLine, symbol: e.symbol ?? undefined }), {
            class: 'evidence-link',
          }),
          e.symbol ? h('span', { class: 'name' }, ` ${e.symbol}`) : null,
          e.tool ? h('span', { class: 'muted small' }, ` (${e.tool})`) : null,
          e.excerpt ? h('details', null, h('summary', null, 'excerpt'), h('pre', { class: 'excerpt' }, e.excerpt)) : null,
        ),
      ),
    );
  }

  private showNode(node: TraceNode, trace: AskTrace): void {
    const value = meanValue(node);
    const onAnswerPath = trace.answerPath.includes(node.id);
    const rows: Array<[string, Child]> = [
      ['mean value', h('span', null, h('span', { class: 'swatch', style: `background:${valueColour(value)}` }), value === null ? '–' : value.toFixed(1))],
      ['visits', String(node.visits)],
      ['score', node.score === null ? '–' : String(node.score)],
      ['depth', String(node.depth ?? '–')],
    ];
    replaceChildren(
      this.details,
      h('h3', null, `#${node.id} ${nodeLabel(node)}`, onAnswerPath ? h('span', { class: 'chip answer-chip' }, 'answer path') : null),
      node.action
        ? [h('pre', { class: 'args' }, JSON.stringify(node.action.args, null, 2)), node.action.rationale ? h('p', { class: 'rationale' }, node.action.rationale) : null]
        : h('p', { class: 'muted' }, 'The root: the question itself.'),
      h('dl', { class: 'facts' }, rows.map(([k, v]) => [h('dt', null, k), h('dd', null, v)])),
      node.evaluation
        ? h('div', { class: 'evaluation' }, h('h4', null, `Evaluation: ${node.score ?? '–'}`), h('p', { id: 'evaluation-reason' }, node.evaluation.rationale), node.evaluation.followUp ? h('p', { class: 'muted' }, `Follow-up: ${node.evaluation.followUp}`) : null)
        : null,
      h('h4', null, `Evidence (${node.evidence.length})`),
      this.evidence(node.evidence),
      node.toolText ? h('details', null, h('summary', null, node.toolError ? 'tool error' : 'tool output'), h('pre', { class: 'excerpt' }, node.toolText)) : null,
      node.perception ? h('details', null, h('summary', null, 'perception'), h('p', null, node.perception.summary)) : null,
      node.rejected?.length
        ? h('details', null, h('summary', null, `rejected proposals (${node.rejected.length})`), h('ul', null, node.rejected.map((r) => h('li', null, `${r.type}: ${r.reason}`))))
        : null,
    );
  }

  private steps(trace: AskTrace): HTMLElement {
    return h(
      'ol',
      { class: 'panel steps' },
      trace.steps.map((s) =>
        h(
          'li',
          null,
          h('p', null, h('b', null, s.action ? s.action.type : 'thought'), ' ', s.thought),
          s.action ? h('pre', { class: 'args' }, JSON.stringify(s.action.args)) : null,
          s.observation ? h('details', null, h('summary', null, 'observation'), h('pre', { class: 'excerpt' }, s.observation)) : null,
          s.evidence?.length ? this.evidence(s.evidence) : null,
        ),
      ),
    );
  }

  private answer(trace: AskTrace): HTMLElement {
    const a = trace.answer;
    return h(
      'div',
      { class: 'panel answer', id: 'trace-answer' },
      h('h2', null, 'Answer', a.fallback ? h('span', { class: 'warning small' }, ' (fallback: evidence list, no model)') : null, a.revised ? h('span', { class: 'muted small' }, ' (revised)') : null),
      h('div', { class: 'answer-text' }, linkCitations(a.text, [...a.citations, ...(a.dropped ?? [])])),
      a.citations.length || a.dropped?.length ? [h('h4', null, 'Citations'), citationList(a.citations, a.dropped ?? [])] : null,
      trace.cost ? h('p', { class: 'muted small' }, `${trace.cost.calls} model calls, ${trace.cost.totalTokens} tokens (${trace.cost.inputTokens} in, ${trace.cost.outputTokens} out)${trace.cost.costUsd != null ? `, $${fmt(trace.cost.costUsd, 4)}` : ''}`) : null,
    );
  }
}
