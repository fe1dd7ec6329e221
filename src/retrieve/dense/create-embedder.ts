/**
 * One entry point from user settings (CLI flags, MCP config) to an Embedder,
 * so every front end maps `--embedder`, `--embed-model` and
 * `--embed-base-url` the same way.
 */
import { ReponavError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Embedder } from './embedder.js';
import { LocalEmbedder } from './local-embedder.js';
import { OpenAIEmbedder } from './openai-embedder.js';
import { EMBEDDER_KINDS, type EmbedderKind } from './embedder-kinds.js';

export { EMBEDDER_KINDS, type EmbedderKind } from './embedder-kinds.js';

/** User-level embedder settings; unset fields fall back to REPONAV_EMBED_* environment variables (openai-compatible) or defaults. */
export interface EmbedderSettings {
  kind: EmbedderKind;
  /** Model name on the server (`openai-compatible`) or model folder (`local`). */
  model?: string;
  /** Server base URL ending in /v1 (`openai-compatible` only). */
  baseUrl?: string;
  apiKey?: string;
  /** Texts per request / forward pass. */
  batchSize?: number;
  maxInputChars?: number;
  /** Shortened vectors (OpenAI text-embedding-3 only). */
  dimensions?: number;
  logger?: Logger;
  env?: Record<string, string | undefined>;
}

/**
 * Builds the embedder `settings` describe. Throws
 * `ReponavError('EMBEDDER_ERROR')` for unusable settings (unknown kind, no
 * model folder for `local`, a base URL given to `local`, no key for
 * api.openai.com…) before any network or model access.
 */
export function createEmbedder(settings: EmbedderSettings): Embedder {
  switch (settings.kind) {
    case 'openai-compatible':
      return new OpenAIEmbedder({
        baseUrl: settings.baseUrl,
        model: settings.model,
        apiKey: settings.apiKey,
        batchSize: settings.batchSize,
        maxInputChars: settings.maxInputChars,
        dimensions: settings.dimensions,
        logger: settings.logger,
        env: settings.env,
      });
    case 'local':
      if (settings.baseUrl) {
        throw new ReponavError('EMBEDDER_ERROR', '--embed-base-url applies to --embedder openai-compatible; the local embedder takes a model folder via --embed-model.');
      }
      return new LocalEmbedder({ modelPath: settings.model ?? '', batchSize: settings.batchSize, maxInputChars: settings.maxInputChars });
    default:
      throw new ReponavError('EMBEDDER_ERROR', `Unknown embedder '${String(settings.kind)}'; use one of ${EMBEDDER_KINDS.join(', ')}.`);
  }
}
