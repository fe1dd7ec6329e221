/**
 * Every message that counts something agrees with its number: no "1 files",
 * "after 1 attempts", "attempt 2/1", nor "2 file". Generated over counts 0..3
 * (every combination where a message takes several counts) for the messages
 * a user or a model reads; a failure names the message and the counts.
 */
import { describe, expect, it } from 'vitest';
import { indexedText, writerText } from '../../src/cli/commands/status-command.js';
import { summarizeReport } from '../../src/cli/commands/index-command.js';
import { noRankingMessage, buildRerankMessages } from '../../src/retrieve/rerank/rerank-prompt.js';
import { fileListHeader } from '../../src/scaffold/render-file-only.js';
import { partialLine } from '../../src/tools/focused-answer.js';
import { renderProvisional } from '../../src/tools/provisional-answer.js';
import { progressMessage, stillIndexingText } from '../../src/tools/tool-freshness.js';
import { reindexTool } from '../../src/tools/index-tools.js';
import { LlmTransportError, withRetry, type RetryPolicy } from '../../src/llm/retry.js';
import type { IndexReport } from '../../src/index/index.js';
import type { ToolEnvironment } from '../../src/tools/tool-types.js';

const COUNTS = [0, 1, 2, 3];
const NOUNS = [
  'file', 'attempt', 'timed-out attempt', 'call', 'model call', 'candidate', 'candidate file', 'line', 'character', 'char', 'token',
  'byte', 'embedding', 'input', 'instance', 'node', 'symbol', 'chunk', 'partial parse', 'parse', 'code function', 'function', 'new or changed file',
];
const PLURAL: Record<string, string> = { 'partial parse': 'partial parses', parse: 'parses' };
const plural = (noun: string) => PLURAL[noun] ?? `${noun}s`;

/** The counted nouns of `text` that disagree with their number. */
function disagreements(text: string): string[] {
  const found: string[] = [];
  for (const noun of NOUNS) {
    const many = plural(noun);
    for (const match of text.matchAll(new RegExp(`(?<![\\d./-])(\\d+) (${escape(many)}|${escape(noun)})\\b(?!-)`, 'g'))) {
      const n = Number(match[1]);
      const word = match[2];
      // A longer counted phrase that starts here ("1 candidate files" is "candidate file", not "candidate") is checked as that phrase.
      const rest = text.slice(match.index! + match[1].length + 1);
      if (NOUNS.some((longer) => longer.length > noun.length && longer.startsWith(`${noun} `) && (rest.startsWith(longer) || rest.startsWith(plural(longer))))) continue;
      if ((n === 1 && word === many && many !== noun) || (n !== 1 && word === noun && text.slice(match.index! + match[0].length).match(/^s\b/) === null && many !== noun)) {
        found.push(match[0]);
      }
    }
  }
  // "attempt N/M" never counts past its total.
  for (const match of text.matchAll(/attempt (\d+)\/(\d+)/g)) if (Number(match[1]) > Number(match[2])) found.push(match[0]);
  return found;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function expectAgreement(text: string, what: string): void {
  expect(disagreements(text), `${what}: ${text}`).toEqual([]);
}

function combinations(size: number): number[][] {
  if (size === 0) return [[]];
  return combinations(size - 1).flatMap((rest) => COUNTS.map((n) => [n, ...rest]));
}

describe('the checker', () => {
  it('finds the mistakes it is for, and passes correct text', () => {
    expect(disagreements('Indexed 1 files')).toEqual(['1 files']);
    expect(disagreements('gave up after 1 attempts')).toEqual(['1 attempts']);
    expect(disagreements('retrying (attempt 2/1)')).toEqual(['attempt 2/1']);
    expect(disagreements('2 file parsed')).toEqual(['2 file']);
    expect(disagreements('1 file, 0 files, 2 partial parses, 1 partial parse, 3/4 files')).toEqual([]);
  });
});

describe('counted nouns in messages, counts 0..3', () => {
  it('status: the Indexed and Writer lines', () => {
    for (const [files, done, total] of combinations(3)) {
      expectAgreement(indexedText({ indexedAt: null, complete: false, writer: null, files }), `indexed ${files}`);
      expectAgreement(writerText({ pid: 1, startedAt: 0, done, total }), `writer ${done}/${total}`);
    }
  });

  it("index's summary and the reindex tool's report", () => {
    for (const [listed, parsed, partial, failed] of combinations(4)) {
      const report: IndexReport = {
        mode: 'worktree', root: '/r', commit: null, listed, unchanged: listed, parsed, reused: parsed, deleted: partial, partial, failed,
        failures: Array.from({ length: failed }, (_, i) => ({ path: `f${i}.py`, reason: 'bad' })), skipped: { binary: partial }, skippedExamples: {}, durationMs: 1000,
      };
      const counts = `listed ${listed} parsed ${parsed} partial ${partial} failed ${failed}`;
      expectAgreement(summarizeReport(report, '/i.db'), `summary ${counts}`);
      expectAgreement(reindexTool.render({ repository: 'r', report }, {} as ToolEnvironment), `reindex ${counts}`);
    }
  });

  it('indexing progress, partial and provisional answers, file lists', () => {
    for (const [done, total, other] of combinations(3)) {
      expectAgreement(progressMessage('r', done, total), `progress ${done}/${total}`);
      expectAgreement(stillIndexingText('r', { done, total }, 'Call again.'), `still indexing ${done}/${total}`);
      expectAgreement(partialLine('r', { indexedFiles: done, totalFiles: total, rankedFiles: other, neighbourFiles: done, complete: false }), `partial ${done} ${total} ${other}`);
      expectAgreement(fileListHeader(done, total), `file list ${done} of ${total}`);
      const files = Array.from({ length: total }, (_, i) => ({ path: `f${i}.py`, score: 1, matches: other, terms: ['x'], line: 1, preview: 'x' }));
      for (const shape of ['scaffold', 'snippet', 'file-only', 'inline'] as const) expectAgreement(renderProvisional(files, 'r', 5000, undefined, shape), `provisional ${shape} ${total}`);
    }
  });

  it('the reranker prompt and its corrective turn', () => {
    for (const n of COUNTS.filter((c) => c > 0)) {
      const candidates = Array.from({ length: n }, (_, i) => ({ id: `a.py:f${i}`, path: 'a.py', qualifiedName: `f${i}`, startLine: 1, endLine: 2, body: 'pass' }));
      const text = buildRerankMessages('issue', candidates, { bodyTokens: 100, issueTokens: 100 }, (t) => t.length).map((m) => m.content).join('\n');
      expectAgreement(text, `rerank ${n}`);
      expectAgreement(noRankingMessage(n), `no ranking ${n}`);
    }
  });

  it("the model client's retry lines and its final error (attempt N/M within its total)", async () => {
    for (const [maxAttempts, failures, empties] of combinations(3).filter(([m]) => m > 0)) {
      const policy: RetryPolicy = { maxAttempts, maxTimeoutAttempts: 2, maxEmptyAttempts: 2, baseDelayMs: 0, maxDelayMs: 0, maxTotalWaitMs: 1000 };
      const lines: string[] = [];
      const logger = { debug: () => undefined, info: () => undefined, warn: (m: string) => void lines.push(m), error: (m: string) => void lines.push(m) };
      let calls = 0;
      let error = '';
      try {
        await withRetry(async () => {
          calls++;
          if (calls <= empties) throw new LlmTransportError('empty-reply', 'the reply was empty');
          if (calls <= empties + failures) throw new LlmTransportError('http', 'server error', { status: 503 });
          return 'ok';
        }, policy, { modelId: 'm', baseUrl: 'http://127.0.0.1:1', logger: logger as never });
      } catch (caught) {
        error = (caught as Error).message;
      }
      for (const line of [...lines, error]) expectAgreement(line, `retry: max ${maxAttempts}, ${empties} empty then ${failures} failed`);
    }
  });
});
