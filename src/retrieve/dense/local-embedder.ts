/**
 * Embeddings from a model folder on this machine through transformers.js
 * (`@huggingface/transformers`, ONNX Runtime). The package is an OPTIONAL
 * dependency loaded with a dynamic `import()` on first use: reponav installs
 * and runs without it, and only users who ask for `--embedder local` pay for
 * its native runtime. Remote model downloads are switched off — the folder
 * must already hold the model (config.json, tokenizer files, onnx/model*.onnx).
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';
import { ReponavError } from '../../errors.js';
import { checkVectors, truncateForEmbedding, type Embedder } from './embedder.js';

/** The optional package, named once so the message and the import agree. */
export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';

/** Configuration of a {@link LocalEmbedder}. */
export interface LocalEmbedderConfig {
  /** Folder of one model in transformers.js layout (e.g. an exported `all-MiniLM-L6-v2`). */
  modelPath: string;
  /** How token vectors become one vector; sentence-transformers models use `mean`. Default `mean`. */
  pooling?: 'mean' | 'cls';
  /** Unit-length output (cosine = dot product). Default true. */
  normalize?: boolean;
  /** Texts per forward pass; memory grows with batch × sequence length. Default 16. */
  batchSize?: number;
  /** Characters per text before tokenization (the tokenizer truncates to the model window anyway). Default 8000. */
  maxInputChars?: number;
  /** transformers.js weight variant, e.g. `fp32`, `q8`; default: the library's choice. */
  dtype?: string;
  /** Module loader; tests inject a failing one. Default: dynamic `import()`. */
  importModule?: (specifier: string) => Promise<unknown>;
}

/** A transformers.js feature-extraction pipeline, typed as far as we use it. */
type FeatureExtractor = (texts: string[], options: { pooling: 'mean' | 'cls'; normalize: boolean }) => Promise<{ data: ArrayLike<number>; dims: number[] }>;

/**
 * An {@link Embedder} running a local model folder in-process. Its id is
 * `local:<folder name>` (plus `:cls` for CLS pooling, which yields a different
 * vector space). The model loads on the first `embed` call; when
 * `@huggingface/transformers` is not installed that call rejects with
 * `ReponavError('EMBEDDER_ERROR')` saying how to install it. The constructor
 * rejects a missing folder at once. `signal` is checked between batches
 * (ONNX Runtime cannot interrupt a forward pass).
 */
export class LocalEmbedder implements Embedder {
  readonly id: string;
  private knownDimension: number | null = null;
  private loading: Promise<FeatureExtractor> | null = null;
  private readonly modelPath: string;
  private readonly pooling: 'mean' | 'cls';
  private readonly normalize: boolean;
  private readonly batchSize: number;
  private readonly maxInputChars: number;
  private readonly dtype: string | undefined;
  private readonly importModule: (specifier: string) => Promise<unknown>;

  constructor(config: LocalEmbedderConfig) {
    if (!config.modelPath?.trim()) {
      throw new ReponavError('EMBEDDER_ERROR', 'The local embedder needs a model folder: pass --embed-model <folder>.');
    }
    this.modelPath = resolve(config.modelPath);
    if (!existsSync(this.modelPath) || !statSync(this.modelPath).isDirectory()) {
      throw new ReponavError(
        'EMBEDDER_ERROR',
        `Local embedding model folder ${this.modelPath} does not exist; pass a folder holding config.json, the tokenizer and onnx/model.onnx (models are never downloaded).`,
      );
    }
    this.pooling = config.pooling ?? 'mean';
    this.normalize = config.normalize ?? true;
    this.batchSize = positive('batchSize', config.batchSize ?? 16);
    this.maxInputChars = positive('maxInputChars', config.maxInputChars ?? 8000);
    this.dtype = config.dtype;
    // A specifier held in a variable keeps TypeScript from resolving the
    // optional package at build time (it is usually absent).
    this.importModule = config.importModule ?? ((specifier) => import(specifier));
    this.id = `local:${basename(this.modelPath)}${this.pooling === 'cls' ? ':cls' : ''}`;
  }

  get dimension(): number | null {
    return this.knownDimension;
  }

  /** See {@link Embedder.embed}. */
  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const extract = await this.extractor();
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      if (signal?.aborted) throw new ReponavError('EMBEDDER_ERROR', `Local embedding with ${this.id} aborted by caller.`, { aborted: true });
      const batch = texts.slice(start, start + this.batchSize).map((t) => truncateForEmbedding(t, this.maxInputChars));
      let tensor: { data: ArrayLike<number>; dims: number[] };
      try {
        tensor = await extract(batch, { pooling: this.pooling, normalize: this.normalize });
      } catch (error) {
        throw new ReponavError('EMBEDDER_ERROR', `Local model ${this.modelPath} failed to embed: ${(error as Error).message}`);
      }
      const [rows, width] = tensor.dims;
      if (tensor.dims.length !== 2 || rows !== batch.length || !width) {
        throw new ReponavError('EMBEDDER_ERROR', `Local model ${this.modelPath} returned a tensor of shape [${tensor.dims.join(', ')}], expected [${batch.length}, d].`);
      }
      const vectors: Float32Array[] = [];
      for (let r = 0; r < rows; r++) vectors.push(Float32Array.from(Array.prototype.slice.call(tensor.data, r * width, (r + 1) * width) as number[]));
      checkVectors(vectors, batch.length, `Local model ${this.modelPath}`);
      this.knownDimension ??= width;
      out.push(...vectors);
    }
    return out;
  }

  /** Loads the package and the pipeline once; a failed load is retried on the next call. */
  private extractor(): Promise<FeatureExtractor> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = null;
      throw error;
    });
    return this.loading;
  }

  private async load(): Promise<FeatureExtractor> {
    let library: { env?: Record<string, unknown>; pipeline?: (...args: unknown[]) => Promise<unknown> };
    try {
      library = (await this.importModule(TRANSFORMERS_PACKAGE)) as typeof library;
    } catch (error) {
      throw importFailure(error, this.modelPath);
    }
    if (!library?.env || typeof library.pipeline !== 'function') {
      throw new ReponavError('EMBEDDER_ERROR', `${TRANSFORMERS_PACKAGE} loaded but has no env/pipeline export; install a 3.x version.`);
    }
    // Never reach for the network: a typo in the folder must fail, not download.
    library.env.allowRemoteModels = false;
    library.env.allowLocalModels = true;
    library.env.localModelPath = dirname(this.modelPath) + sep;
    try {
      const options: Record<string, unknown> = { local_files_only: true };
      if (this.dtype) options.dtype = this.dtype;
      return (await library.pipeline('feature-extraction', basename(this.modelPath), options)) as FeatureExtractor;
    } catch (error) {
      throw new ReponavError(
        'EMBEDDER_ERROR',
        `Could not load the local model in ${this.modelPath}: ${(error as Error).message}. ` +
          'The folder must hold config.json, tokenizer.json (+ tokenizer_config.json) and onnx/model.onnx (or the dtype variant).',
      );
    }
  }
}

/** The message for a failed `import()` of the optional package: absent, or present but broken (native runtime). */
function importFailure(error: unknown, modelPath: string): ReponavError {
  const code = (error as { code?: string })?.code;
  const message = error instanceof Error ? error.message : String(error);
  // Node says ERR_MODULE_NOT_FOUND; bundlers' resolvers (vite, used by tests and
  // by apps that embed reponav) say "Could not resolve" / "Cannot find package".
  const absent =
    message.includes(TRANSFORMERS_PACKAGE) &&
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /could not resolve|cannot find (package|module)/i.test(message));
  if (absent) {
    return new ReponavError(
      'EMBEDDER_ERROR',
      `Local embeddings need the optional package ${TRANSFORMERS_PACKAGE}, which is not installed. ` +
        `Run \`npm install ${TRANSFORMERS_PACKAGE}\` next to reponav, then pass --embed-model <folder> pointing at a downloaded model ` +
        `(reponav sets env.allowRemoteModels = false and env.localModelPath to the folder's parent; nothing is downloaded). ` +
        `Or use --embedder openai-compatible with a local server such as Ollama.`,
      { missingPackage: TRANSFORMERS_PACKAGE, modelPath },
    );
  }
  return new ReponavError(
    'EMBEDDER_ERROR',
    `${TRANSFORMERS_PACKAGE} is installed but failed to load (${message}); its native ONNX runtime may not support this platform. ` +
      'Use --embedder openai-compatible with a local server such as Ollama instead.',
    { modelPath },
  );
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new ReponavError('EMBEDDER_ERROR', `Local embedder ${name} must be a positive integer, got ${value}.`);
  return value;
}
