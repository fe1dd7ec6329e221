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

/** `retrieval` (index + rank, no model; default) or `agent` (an LLM agent drives the tools). */
export type LocbenchMode = 'retrieval' | 'agent';

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
 * composed (the CLI passes the retrieval localizer and the localization agent;
 * eval never imports an implementation). Without `factories.agent`,
 * `mode: 'agent'` throws ReponavError BAD_INPUT.
 */
export async function createLocbenchLocalizer(
  config: LocbenchLocalizerConfig,
  factories: { retrieval: LocalizerFactory; agent?: LocalizerFactory },
): Promise<InstanceLocalizer> {
  if (config.mode === 'retrieval') return factories.retrieval(config);
  if (!factories.agent) {
    throw new ReponavError('BAD_INPUT', '--mode agent needs an agent localizer, and this program was composed without one; use --mode retrieval.', {
      mode: config.mode,
      interface: config.interface,
    });
  }
  return factories.agent(config);
}
