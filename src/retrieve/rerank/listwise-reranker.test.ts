import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isReponavError } from '../../errors.js';
import { replies, startScriptedLlmServer, styles, type ScriptedLlmServer, type ScriptedRequest } from '../../../test/helpers/scripted-llm-server.js';
import { rerankCandidates } from './listwise-reranker.js';
import type { RerankCandidate } from './rerank-prompt.js';

const CANDIDATES: RerankCandidate[] = Array.from({ length: 8 }, (_, i) => ({
  id: `m.py:f${i}`,
  path: 'm.py',
  qualifiedName: `f${i}`,
  startLine: i * 3 + 1,
  endLine: i * 3 + 2,
  body: `def f${i}():\n    return ${i}`,
}));

/** The window's names as the prompt numbered them ([1] first). */
function windowNames(request: ScriptedRequest): string[] {
  return [...request.prompt.matchAll(/^\[(\d+)\] m\.py:(f\d+)/gm)].map((m) => m[2]!);
}

/** A model that ranks by descending function number: reverses the list overall. */
function descending(request: ScriptedRequest): string {
  const names = windowNames(request);
  return names
    .map((name, i) => ({ id: i + 1, n: Number(name.slice(1)) }))
    .sort((a, b) => b.n - a.n)
    .map((x) => `[${x.id}]`)
    .join(' > ');
}

let server: ScriptedLlmServer;
beforeEach(async () => {
  server = await startScriptedLlmServer();
});
afterEach(() => server.close());

describe.each(['openai', 'anthropic'] as const)('rerankCandidates over the %s wire format', (provider) => {
  it('slides windows from the bottom up, so a low candidate can reach the top', async () => {
    server.setDefault((request) => ({ text: descending(request) }));
    const { candidates, trace } = await rerankCandidates(server.model(provider), 'issue', CANDIDATES, { window: 4, step: 2 });
    expect(trace.windows.map((w) => [w.start, w.end])).toEqual([
      [4, 8],
      [2, 6],
      [0, 4],
    ]);
    expect(server.requests).toHaveLength(3);
    expect(windowNames(server.requests[0]!)).toEqual(['f4', 'f5', 'f6', 'f7']);
    expect(candidates[0]!.id).toBe('m.py:f7');
    expect(trace.calls).toBe(3);
    expect(trace.inputTokens).toBeGreaterThan(0);
    expect(trace.output).toEqual(candidates.map((c) => c.id));
  });

  it('never reads a ranking drafted in a reasoning block', async () => {
    server.setDefault(() => ({ text: styles.think('[4] > [3] > [2] > [1]', '[1] > [2] > [3] > [4]') }));
    const { candidates, trace } = await rerankCandidates(server.model(provider), 'issue', CANDIDATES.slice(0, 4), { window: 4, step: 2 });
    expect(candidates.map((c) => c.qualifiedName)).toEqual(['f0', 'f1', 'f2', 'f3']);
    expect(trace.windows[0]!.attempts[0]!.reasoning).toContain('[4] > [3]');
  });

  it('asks again after a cut reply and uses the second answer', async () => {
    server.push(replies.cut('[4] > ['), { text: '[4] > [3] > [2] > [1]' });
    const { candidates, trace } = await rerankCandidates(server.model(provider), 'issue', CANDIDATES.slice(0, 4), { window: 4, step: 2 });
    expect(candidates[0]!.qualifiedName).toBe('f3');
    expect(trace.cutReplies).toBe(1);
    expect(trace.reasks).toBe(1);
    expect(server.requests[1]!.prompt).toContain('cut off at the length limit');
  });

  it('fails with LLM_ERROR when the reply twice names no candidate', async () => {
    server.setDefault({ text: 'These all look relevant to me.' });
    const error = await rerankCandidates(server.model(provider), 'issue', CANDIDATES.slice(0, 4)).catch((e: unknown) => e);
    expect(isReponavError(error, 'LLM_ERROR')).toBe(true);
    expect((error as Error).message).toMatch(/named none of the 4 candidates/);
    expect(server.requests).toHaveLength(2);
  });

  it('is an error when the endpoint is down, and keeps the retrieval order only when asked, saying so', async () => {
    server.setDefault({ status: 500 });
    const error = await rerankCandidates(server.model(provider), 'issue', CANDIDATES.slice(0, 4)).catch((e: unknown) => e);
    expect(isReponavError(error, 'LLM_ERROR')).toBe(true);
    expect((error as { details?: { cause?: string } }).details?.cause).toBe('server-error');
    const kept = await rerankCandidates(server.model(provider), 'issue', CANDIDATES.slice(0, 4), { onFailure: 'retrieval-order' });
    expect(kept.candidates.map((c) => c.qualifiedName)).toEqual(['f0', 'f1', 'f2', 'f3']);
    expect(kept.trace.fallback).toMatchObject({ code: 'LLM_ERROR', cause: 'server-error' });
  });

  it('stops at its deadline with an error naming it', async () => {
    server.setDefault(replies.hang(5_000));
    const error = await rerankCandidates(server.model(provider), 'issue', CANDIDATES.slice(0, 4), { deadlineMs: 300 }).catch((e: unknown) => e);
    expect(isReponavError(error, 'LLM_ERROR')).toBe(true);
    expect((error as Error).message).toMatch(/deadline of 0\.3 s passed/);
  });

  it('counts unknown, repeated and missing identifiers in the trace', async () => {
    server.push({ text: '[2] > [7] > [2] > [1]' });
    const { candidates, trace } = await rerankCandidates(server.model(provider), 'issue', CANDIDATES.slice(0, 4), { window: 4, step: 2 });
    expect(candidates.map((c) => c.qualifiedName)).toEqual(['f1', 'f0', 'f2', 'f3']);
    expect(trace).toMatchObject({ unknownIds: 1, repeatedIds: 1, missingIds: 2 });
  });
});
