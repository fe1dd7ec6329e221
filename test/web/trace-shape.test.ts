/**
 * Validation of ask traces and evaluation summaries before the page draws
 * them: the recorded fixture passes, older spellings are mapped, and broken
 * documents get messages that say where the problem is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http-api/http-io.js';
import { parseReport } from '../../src/http-api/report-shape.js';
import { parseAskTrace } from '../../src/http-api/trace-shape.js';
import { FIXTURES } from './web-harness.js';

const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

function failure(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('parseAskTrace', () => {
  it('accepts a recorded trace unchanged', () => {
    const raw = fixture('ask-trace.json');
    const { trace, warnings } = parseAskTrace(raw, 'ask-trace.json');
    expect(warnings).toEqual([]);
    expect(trace.nodes.map((n) => n.action?.type ?? 'root')).toEqual(['root', 'FindClass', 'SemanticSearch', 'ViewCode', 'FindFunction', 'FindFunction', 'Finish']);
    // Fields the view does not check pass through.
    expect(trace.nodes[1]!.perception).toEqual(raw.nodes[1].perception);
    expect(trace.answer.citations).toHaveLength(5);
  });

  it('maps hand-written spellings: action.name, evaluation.score/reason, value', () => {
    const { trace } = parseAskTrace(
      {
        version: 1,
        method: 'mcts',
        question: 'q',
        nodes: [
          { id: 0, parentId: null, action: null, visits: 2, value: 40 },
          { id: 1, parentId: 0, action: { name: 'FindClass', args: { name: 'Cart' } }, evidence: [{ path: 'a.py', startLine: 1, endLine: 3, text: 'x' }], visits: 1, value: 70, evaluation: { score: 70, reason: 'good' } },
        ],
        answer: { text: 'see a.py:1-3' },
      },
      'hand.json',
    );
    expect(trace.nodes[0]!.valueSum).toBe(80);
    expect(trace.nodes[1]).toMatchObject({ action: { type: 'FindClass' }, score: 70, evaluation: { rationale: 'good', followUp: '' }, valueSum: 70 });
    expect(trace.answer.citations).toEqual([]);
  });

  it('names the problem in broken traces', () => {
    expect(failure(() => parseAskTrace([1, 2], 'x.json')).message).toMatch(/x\.json is not a reponav ask trace/);
    const bad = failure(() => parseAskTrace({ version: 1, method: 'mcts', question: 'q', nodes: [{ id: 0, parentId: null, action: null, visits: 'many' }], answer: { text: '' } }, 'y.json'));
    expect(bad.status).toBe(422);
    expect(bad.message).toMatch(/^y\.json is not a readable ask trace: nodes\[0\]\.visits: /);
    const twice = { version: 1, method: 'mcts', question: 'q', nodes: [{ id: 0, parentId: null, action: null }, { id: 0, parentId: 0, action: null }], answer: { text: '' } };
    expect(failure(() => parseAskTrace(twice, 'z.json')).message).toMatch(/node id 0 appears twice/);
    const rootless = { version: 1, method: 'mcts', question: 'q', nodes: [{ id: 1, parentId: 2, action: null }, { id: 2, parentId: 1, action: null }], answer: { text: '' } };
    expect(failure(() => parseAskTrace(rootless, 'r.json')).message).toMatch(/no root node/);
  });

  it('warns about dangling parents and newer versions instead of failing', () => {
    const { warnings } = parseAskTrace(
      { version: 9, method: 'mcts', question: 'q', nodes: [{ id: 0, parentId: null, action: null }, { id: 4, parentId: 3, action: { type: 'ViewCode', args: {} } }], answer: { text: '' } },
      'w.json',
    );
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/newer than this view/);
    expect(warnings[1]).toMatch(/Nodes 4 name a parent/);
  });
});

describe('parseReport', () => {
  it('recognises LocBench and SWE-QA summaries', () => {
    expect(parseReport(fixture('locbench-summary-a.json'), 'a').kind).toBe('locbench');
    expect(parseReport(fixture('sweqa-summary.json'), 's').kind).toBe('sweqa');
  });

  it('explains what is wrong with other documents', () => {
    expect(failure(() => parseReport(fixture('ask-trace.json'), 'trace.json')).message).toMatch(/trace\.json is not a reponav LocBench summary.*SWE-QA/);
    const broken = { ...fixture('locbench-summary-a.json'), metrics: { file: { scores: {} } } };
    expect(failure(() => parseReport(broken, 'b.json')).message).toBe('b.json: metrics.module is missing.');
    expect(failure(() => parseReport({ benchmark: 'swe-qa', version: 2 }, 'q.json')).message).toMatch(/q\.json is not a readable SWE-QA summary: version is 2/);
  });
});
