/**
 * The one seam between dense retrieval and whatever computes embeddings (an
 * OpenAI-compatible server, a local ONNX model, a test double). Everything
 * else in `retrieve/dense` depends on this interface only.
 */
import { ReponavError } from '../../errors.js';
import { countOf } from '../../plural.js';

/**
 * Turns texts into vectors.
 *
 * Contract:
 * - `id` names the vector space as `provider:model` (e.g.
 *   `openai-compatible:text-embedding-3-small`, `local:all-MiniLM-L6-v2`).
 *   Vectors from embedders with different ids are never compared: the vector
 *   store records the id and refuses a mismatch.
 * - `dimension` is null until the first successful `embed` call when the
 *   provider does not announce it up front.
 * - `embed` returns exactly one vector per input text, in input order, all of
 *   the same length, with finite components. It may split the input into
 *   several requests. It rejects with `ReponavError('EMBEDDER_ERROR')` on
 *   failure and honours `signal` (an abort rejects, it never resolves partially).
 */
export interface Embedder {
  readonly id: string;
  readonly dimension: number | null;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/**
 * Checks the `embed` contract on a provider's answer (count, equal lengths,
 * finite numbers) and returns the common dimension. Throws
 * `ReponavError('EMBEDDER_ERROR')` naming `source` (never a secret) otherwise,
 * so a misbehaving server surfaces as an error rather than as garbage rankings.
 */
export function checkVectors(vectors: Float32Array[], expectedCount: number, source: string): number {
  if (vectors.length !== expectedCount) {
    throw new ReponavError('EMBEDDER_ERROR', `${source} returned ${countOf(vectors.length, 'embedding')} for ${countOf(expectedCount, 'input')}.`, {
      expected: expectedCount,
      received: vectors.length,
    });
  }
  if (vectors.length === 0) return 0;
  const dimension = vectors[0]!.length;
  if (dimension === 0) throw new ReponavError('EMBEDDER_ERROR', `${source} returned an empty embedding.`);
  for (const vector of vectors) {
    if (vector.length !== dimension) {
      throw new ReponavError('EMBEDDER_ERROR', `${source} returned embeddings of different lengths (${dimension} and ${vector.length}).`);
    }
    for (let i = 0; i < vector.length; i++) {
      if (!Number.isFinite(vector[i]!)) throw new ReponavError('EMBEDDER_ERROR', `${source} returned a non-finite embedding component.`);
    }
  }
  return dimension;
}

/**
 * Cuts `text` to at most `maxChars` UTF-16 units without splitting a
 * surrogate pair (a lone surrogate becomes U+FFFD in JSON and can make strict
 * servers reject the request). Empty text becomes one space, because several
 * servers (OpenAI included) reject empty inputs.
 */
export function truncateForEmbedding(text: string, maxChars: number): string {
  if (text.length === 0) return ' ';
  if (text.length <= maxChars) return text;
  let end = Math.max(1, Math.floor(maxChars));
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, Math.max(1, end));
}
