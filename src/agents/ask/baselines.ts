/**
 * The two single-shot baselines. RAG: plain BM25 over function chunks (the
 * reference retrieval mode), the top chunks become the evidence, one answer
 * call writes the answer (citations checked as for every method). Direct:
 * the model answers from its own knowledge with no repository at all.
 */
import { searchRepository } from '../../retrieve/index.js';
import { directMessages } from './answer-prompts.js';
import type { AskSettings } from './ask-settings.js';
import { buildEvidence } from './evidence.js';
import { storeOf, type ExecutionEnvironment } from './execution-role.js';
import { callTextRole, type RoleRuntime, type TextFailure } from './role-caller.js';
import { SearchStop } from './run-budget.js';
import type { TraceEvidence } from './trace-types.js';

/** Function-chunk retrieval for `question`: the top `ragTopK` chunks as evidence, best first. */
export async function ragEvidence(question: string, exec: ExecutionEnvironment, settings: AskSettings): Promise<TraceEvidence[]> {
  const store = storeOf(exec);
  const result = await searchRepository(store, question, { queryMode: 'plain', chunkKinds: ['function'] });
  const spans = result.hits.slice(0, settings.ragTopK).map((h) => ({ path: h.path, startLine: h.startLine, endLine: h.endLine, symbol: h.symbol }));
  return buildEvidence('rag', spans, store, { terms: exec.terms, seen: [], maxItems: settings.ragTopK, excerptLines: settings.excerptLines });
}

/** The direct baseline's answer; on failure, a one-line explanation with `fallback: true`. */
export async function directAnswer(
  rt: RoleRuntime,
  input: { question: string; repository: string | null; settings: AskSettings },
): Promise<{ text: string; fallback: boolean; failure?: TextFailure }> {
  try {
    const reply = await callTextRole(rt, {
      role: 'direct',
      nodeId: null,
      iteration: 0,
      messages: directMessages(input.question, input.repository),
      temperature: input.settings.answerTemperature,
      maxTokens: input.settings.maxReplyTokens * 2,
    });
    if (reply.ok) return { text: reply.value, fallback: false };
    return { text: `No answer could be written (${reply.error}).`, fallback: true, ...(reply.failure ? { failure: reply.failure } : {}) };
  } catch (error) {
    if (error instanceof SearchStop) return { text: `No answer could be written (budget: ${error.reason}).`, fallback: true };
    throw error;
  }
}
