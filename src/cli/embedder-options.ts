import { type Command, Option } from 'commander';
import type { IndexStore } from '../index/index.js';
import type { Logger } from '../logger.js';
// eslint-disable-next-line entry-points/no-restricted-paths -- the flag's choices without loading any embedder (dense/index.ts loads them all)
import { EMBEDDER_KINDS, type EmbedderKind } from '../retrieve/dense/embedder-kinds.js';
import type { SearchOptions } from '../retrieve/index.js';
import { createProgressBar } from './progress-bar.js';
import type { CliOutput } from './cli-io.js';

/** The opt-in dense retrieval flags shared by `index` and `search`. */
export interface EmbedderFlags {
  embedder?: EmbedderKind;
  embedModel?: string;
  embedBaseUrl?: string;
  reembed?: boolean;
  fusion?: 'rrf' | 'normalized';
  quiet?: boolean;
  json?: boolean;
}

/** Adds `--embedder`, `--embed-model`, `--embed-base-url`, and (when asked) `--reembed` and `--fusion`. */
export function addEmbedderOptions(command: Command, extras: { fusion: boolean; reembed: boolean }): Command {
  command
    .addOption(new Option('--embedder <kind>', 'opt-in dense retrieval: an OpenAI-compatible /v1/embeddings server or a local model folder').choices([...EMBEDDER_KINDS]))
    .option('--embed-model <name>', 'embedding model name (server) or folder (local); env REPONAV_EMBED_MODEL')
    .option('--embed-base-url <url>', 'embeddings server base URL ending in /v1 (e.g. http://127.0.0.1:11434/v1 for Ollama); env REPONAV_EMBED_BASE_URL');
  if (extras.reembed) command.option('--reembed', 'discard stored vectors first (after changing the embedding model)');
  if (extras.fusion) {
    command.addOption(new Option('--fusion <method>', 'how dense and BM25 hits are fused').choices(['rrf', 'normalized']).default('rrf'));
  }
  return command;
}

/**
 * When `--embedder` is given: embeds the chunks that have no vector yet (with a
 * progress bar) and returns the fusion to pass as `SearchOptions.fuse`, plus the
 * embedding counts. Without `--embedder`: nothing (the default BM25 path).
 */
export async function prepareDenseRetrieval(
  store: IndexStore,
  flags: EmbedderFlags,
  logger: Logger,
  stderr: CliOutput,
  pathFilter?: (path: string) => boolean,
): Promise<{ fuse?: SearchOptions['fuse']; counts?: { embedded: number; cached: number; total: number } }> {
  if (!flags.embedder) return {};
  // Loaded only when asked for: the embedders and their HTTP client would cost every search process their start-up.
  const [{ createEmbedder, ensureEmbeddings }, { createDenseFusion }] = await Promise.all([
    import('../retrieve/dense/index.js'),
    import('../retrieve/index.js'),
  ]);
  const embedder = createEmbedder({ kind: flags.embedder, model: flags.embedModel, baseUrl: flags.embedBaseUrl, logger });
  const bar = flags.quiet || flags.json ? null : createProgressBar('chunks', stderr);
  try {
    const counts = await ensureEmbeddings(store, embedder, {
      reembed: flags.reembed,
      logger,
      onProgress: (p) => bar?.update(p.embedded + p.cached, p.total),
    });
    const fuse = createDenseFusion(store, embedder, { method: flags.fusion ?? 'rrf', pathFilter });
    return { fuse, counts };
  } finally {
    bar?.finish();
  }
}
