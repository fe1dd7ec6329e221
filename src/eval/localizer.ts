/**
 * The seam between the evaluation harness and whatever localizes an issue: the
 * {@link InstanceLocalizer} contract, its configuration, and the choice of
 * factory by mode. Every localizer is injected by the caller (src/cli composes
 * the retrieval localizer and the localization agent); there is no registry.
 */
import { ReponavError } from '../errors.js';

/** Ranked predictions per level, LocAgent keys (best first). */
export interface LocalizationPrediction {
  /** `path/to/file.py` */
  found_files: string[];
  /** `path/to/file.py:Class` or `path/to/file.py:function` */
  found_modules: string[];
  /** `path/to/file.py:Class.method` or `path/to/file.py:function` */
  found_entities: string[];
}

/** One raw chunk hit as a run records it (see the retrieval setting `recordHits`). */
export interface RawChunkHit {
  path: string;
  /** Qualified name of the chunk's symbol, null for a file-remainder chunk. */
  symbol: string | null;
  score: number;
}

/** What one localize call receives. */
export interface LocalizeInput {
  instanceId: string;
  /** `owner/name` */
  repo: string;
  /** A git directory (`git --git-dir` accepts it); may be bare, with no work tree. */
  gitDir: string;
  /** Full commit id to localize at. */
  commit: string;
  /** The issue text. */
  query: string;
}

/** Localizes one instance at a time; calls are sequential, grouped by repository. */
export interface InstanceLocalizer {
  /** Index gitDir at commit (re-using the previous commit's index) and localize the query. */
  localize(input: LocalizeInput): Promise<LocalizationPrediction & { timings?: Record<string, number>; raw_hits?: RawChunkHit[]; raw_hits_deep?: RawChunkHit[] }>;
  close?(): Promise<void>;
  /**
   * What can change a prediction beyond the config as given: e.g. the model
   * actually used (also when it came from the environment), its provider and
   * base URL host, the effective defaults. Recorded in run.json and checked on resume.
   */
  readonly runFacts?: Record<string, unknown>;
}

/** `retrieval` (index + rank, no model; default), `agent` (an LLM agent drives the tools) or `rerank` (retrieval, then a model reranks its top functions). */
export type LocbenchMode = 'retrieval' | 'agent' | 'rerank';

/** Every mode, for `--mode`'s choices. */
export const LOCBENCH_MODES: readonly LocbenchMode[] = ['retrieval', 'agent', 'rerank'];

/** Localizer configuration; recorded in the summary and checked when resuming. */
export interface LocbenchLocalizerConfig {
  mode: LocbenchMode;
  /** Agent mode: which tool interface the agent gets (e.g. `reponav`, `baseline`); passed through. */
  interface?: string;
  /** Free-form settings for the factory (from `--config-json`). */
  settings: Record<string, unknown>;
}

/** Builds a localizer for a configuration. */
export type LocalizerFactory = (config: LocbenchLocalizerConfig) => Promise<InstanceLocalizer>;

/**
 * Creates the localizer for `config.mode` from the factories the caller
 * composed (the CLI passes the retrieval localizer, the rerank localizer and
 * the localization agent; eval never imports an agent). A mode whose factory
 * is missing throws ReponavError BAD_INPUT.
 */
export async function createLocbenchLocalizer(
  config: LocbenchLocalizerConfig,
  factories: { retrieval: LocalizerFactory; agent?: LocalizerFactory; rerank?: LocalizerFactory },
): Promise<InstanceLocalizer> {
  let factory: LocalizerFactory | undefined;
  switch (config.mode) {
    case 'retrieval':
      return factories.retrieval(config);
    case 'agent':
      factory = factories.agent;
      break;
    case 'rerank':
      factory = factories.rerank;
      break;
    default:
      return unknownMode(config.mode);
  }
  if (!factory) {
    throw new ReponavError('BAD_INPUT', `--mode ${config.mode} needs a ${config.mode} localizer, and this program was composed without one; use --mode retrieval.`, {
      mode: config.mode,
      interface: config.interface,
    });
  }
  return factory(config);
}

function unknownMode(mode: never): never {
  throw new ReponavError('BAD_INPUT', `Unknown --mode ${String(mode)}; the modes are ${LOCBENCH_MODES.join(', ')}.`);
}
