/**
 * Agent mode of the LocBench harness: a localizer that runs the
 * localization agent on each instance (at its commit, through the chosen
 * interface) and reports the predictions plus the paper's behaviour figures
 * (steps, tokens, list_symbols use, files inspected, time) as `timings`.
 * One UsageMeter spans the whole run, so `maxUsd` caps total spend.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from '../../zod-mini.js';
import { ReponavError } from '../../errors.js';
import {
  createChatModel,
  ModelConfigSchema,
  resolveModelConfig,
  UsageMeter,
  withUsageMeter,
  type ChatModel,
  type ModelConfig,
  type ResolvedModelConfig,
} from '../../llm/index.js';
import { CommitIndexPool } from '../../index/index.js';
import { silentLogger, type Logger } from '../../logger.js';
import { createEmbedder, EMBEDDER_KINDS } from '../../retrieve/dense/index.js';
import { CommitViewCache } from '../../sandbox/index.js';
import { resolveAgentInterface } from './agent-interfaces.js';
import { DEFAULT_MAX_STEPS, DEFAULT_MAX_TOKENS, runLocalizationAgent } from './agent-loop.js';
import { openAgentWorkspace } from './agent-workspace.js';
import type { Trajectory } from './trajectory.js';
import { countOf } from '../../plural.js';

/**
 * Wall-clock limit of one harness instance when the settings name none: a
 * model or endpoint that never finishes must not hold the run forever (30
 * steps of slow local models fit well inside it).
 */
export const DEFAULT_AGENT_DEADLINE_SECONDS = 1800;

/**
 * Agent settings accepted in `--config-json` (all optional). They are
 * recorded in `run.json` and the summary, so API keys are refused here:
 * keep them in the environment.
 *
 * - `model`: a spec (`openai:gpt-4o-mini`) or a full model config (`baseUrl`,
 *   `transcriptPath` to record, `replay:` + `transcriptPath` to replay, …);
 *   default from `REPONAV_LLM_MODEL` & co.
 * - `maxSteps`, `maxTokens`: per-instance budgets; `maxOutputTokens`: per reply.
 * - `maxUsd`, `maxTotalTokens`: ceilings over the whole run (shared meter).
 * - `shellTimeoutMs`, `shellMaxOutputChars`, `allowAnyCommand`: the shell.
 * - `toolBudgetTokens`: output budget of every index tool (default: each tool's own).
 * - `indexDir`: folder for commit indexes; `traceDir`: write `<instance>.json` trajectories there.
 * - `deadlineSeconds`: wall-clock limit per instance (default {@link DEFAULT_AGENT_DEADLINE_SECONDS}), passed into every model call.
 * - `embedder`: dense retrieval for the index tools (`{"kind": "openai-compatible", "model": …, "baseUrl": …}`), as `--embedder`.
 */
export const AgentSettingsSchema = z.strictObject({
  model: z.optional(z.union([z.string().check(z.minLength(1)), ModelConfigSchema])),
  maxSteps: z.optional(z.number().check(z.int(), z.positive())),
  maxTokens: z.optional(z.number().check(z.int(), z.positive())),
  maxOutputTokens: z.optional(z.number().check(z.int(), z.positive())),
  temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
  maxUsd: z.optional(z.number().check(z.positive())),
  maxTotalTokens: z.optional(z.number().check(z.int(), z.positive())),
  shellTimeoutMs: z.optional(z.number().check(z.int(), z.positive())),
  shellMaxOutputChars: z.optional(z.number().check(z.int(), z.positive())),
  allowAnyCommand: z.optional(z.boolean()),
  toolBudgetTokens: z.optional(z.number().check(z.int(), z.gte(100))),
  indexDir: z.optional(z.string().check(z.minLength(1))),
  traceDir: z.optional(z.string().check(z.minLength(1))),
  maxPredictions: z.optional(z.number().check(z.int(), z.positive())),
  deadlineSeconds: z.optional(z.number().check(z.positive())),
  embedder: z.optional(
    z.strictObject({ kind: z.enum(EMBEDDER_KINDS), model: z.optional(z.string().check(z.minLength(1))), baseUrl: z.optional(z.string().check(z.minLength(1))) }),
  ),
}).check(
  z.refine((s) => typeof s.model !== 'object' || (s.model.apiKey === undefined), {
    message: 'do not put API keys in --config-json (it is recorded in run.json); use the environment (e.g. OPENAI_API_KEY) or apiKeyEnv',
    path: ['model', 'apiKey'],
  }),
);

/** Parsed agent settings. */
export type AgentSettings = z.output<typeof AgentSettingsSchema>;

/** Collaborators of {@link createAgentLocalizer}; all optional. */
export interface AgentLocalizerDeps {
  logger?: Logger;
  /** Environment for model defaults; default `process.env`. */
  env?: Record<string, string | undefined>;
  /** The run-wide meter; default a new one with the settings' ceilings. */
  meter?: UsageMeter;
  /** Parent folder of materialised commit views; default the OS temp dir. */
  viewTempRoot?: string;
}

/**
 * What the agent localizes: one issue in one repository at one commit. The
 * shapes match the LocBench harness's localizer contract (eval/localizer.ts),
 * which the CLI checks when it composes the two; agents never import eval.
 */
export interface AgentLocalizeInput {
  instanceId: string;
  /** `owner/name` */
  repo: string;
  /** A git directory (may be bare). */
  gitDir: string;
  commit: string;
  /** The issue text. */
  query: string;
}

/** Ranked predictions per level (LocAgent keys), plus the behaviour figures as `timings`. */
export interface AgentPrediction {
  found_files: string[];
  found_modules: string[];
  found_entities: string[];
  timings: Record<string, number>;
}

/** Which interface the agent gets and its settings (`--interface`, `--config-json`). */
export interface AgentLocalizerConfig {
  interface?: string;
  settings: Record<string, unknown>;
}

/** A localizer that also exposes the run-wide meter (spend so far) and the metered model. */
export interface AgentLocalizer {
  localize(input: AgentLocalizeInput): Promise<AgentPrediction>;
  readonly meter: UsageMeter;
  readonly model: ChatModel;
  /**
   * What can change a prediction beyond the settings as given: the model used
   * (also when it came from REPONAV_LLM_MODEL), its provider and base URL host,
   * the interface and the effective budgets and defaults. The harness records
   * it in run.json and refuses a resume that differs.
   */
  readonly runFacts: Record<string, unknown>;
  /** Closes the index pool and removes the materialised views. */
  close(): Promise<void>;
}

/** Parses `--config-json` settings, naming every problem. */
export function parseAgentSettings(settings: unknown): AgentSettings {
  const parsed = AgentSettingsSchema.safeParse(settings ?? {});
  if (!parsed.success) {
    throw new ReponavError('BAD_INPUT', `--config-json: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}

/**
 * Builds the agent localizer for `config` (`config.interface`: one of the
 * four interfaces, default `reponav`; `config.settings`: see
 * {@link AgentSettingsSchema}). Throws BAD_INPUT for bad settings and
 * LLM_ERROR when no model is configured. `localize` may run concurrently for
 * different instances (separate views, index slots and shells). It rejects
 * (so the harness records a skip, retried on resume) when the model cannot be
 * reached or the run-wide spend ceiling is reached; every other ending
 * (budgets, malformed answers) is a prediction.
 */
export async function createAgentLocalizer(config: AgentLocalizerConfig, deps: AgentLocalizerDeps = {}): Promise<AgentLocalizer> {
  const logger = deps.logger ?? silentLogger;
  const settings = parseAgentSettings(config.settings);
  const iface = resolveAgentInterface(config.interface);
  const modelConfig: ModelConfig = typeof settings.model === 'string' ? { model: settings.model } : (settings.model ?? {});
  const meter = deps.meter ?? new UsageMeter({ maxCostUsd: settings.maxUsd, maxTokens: settings.maxTotalTokens }, { logger });
  const model = withUsageMeter(createChatModel(modelConfig, { env: deps.env, logger }), meter);
  const runFacts = agentRunFacts(model.id, resolveModelConfig(modelConfig, deps.env ?? process.env), iface.name, settings);
  const views = new CommitViewCache({ logger, tempRoot: deps.viewTempRoot, keepIdle: 2 });
  const indexes = new CommitIndexPool({ indexDir: settings.indexDir, logger });
  const embedder = settings.embedder ? createEmbedder({ ...settings.embedder, logger, env: deps.env }) : undefined;
  if (settings.allowAnyCommand) logger.warn('agent localizer: allowAnyCommand is on; shell commands are not restricted');

  return {
    meter,
    model,
    runFacts,
    async localize(input) {
      const started = performance.now();
      const pooled = iface.indexTools.length > 0 ? await indexes.acquire(input.gitDir, input.repo, input.commit) : null;
      const indexMs = performance.now() - started;
      let trajectory: Trajectory;
      let viewMs = 0;
      try {
        const workspace = await openAgentWorkspace({
          repoPath: input.gitDir,
          commit: input.commit,
          iface,
          index: pooled?.index,
          viewCache: views,
          shell: { timeoutMs: settings.shellTimeoutMs, maxOutputChars: settings.shellMaxOutputChars, allowAnyCommand: settings.allowAnyCommand },
          toolBudgets: settings.toolBudgetTokens ? { defaultTokens: settings.toolBudgetTokens } : undefined,
          ...(embedder ? { embedder } : {}),
          logger,
        });
        viewMs = workspace.viewMs;
        try {
          trajectory = await runLocalizationAgent({
            model,
            issue: input.query,
            iface,
            shell: workspace.shell,
            tools: workspace.tools,
            maxSteps: settings.maxSteps,
            maxTokens: settings.maxTokens,
            maxOutputTokens: settings.maxOutputTokens,
            temperature: settings.temperature,
            maxPredictions: settings.maxPredictions,
            deadlineMs: (settings.deadlineSeconds ?? DEFAULT_AGENT_DEADLINE_SECONDS) * 1000,
            repoRoot: workspace.view.root,
            logger,
          });
        } finally {
          await workspace.close();
        }
      } finally {
        pooled?.release();
      }
      if (settings.traceDir) await writeTrace(settings.traceDir, input.instanceId, { instanceId: input.instanceId, repo: input.repo, commit: input.commit, ...trajectory });
      // A model that only ever replied with nothing is down: an error (retried on resume), never an empty prediction.
      if (trajectory.stopReason === 'empty-replies' && trajectory.steps.every((s) => s.assistant.trim() === '')) {
        throw new ReponavError('LLM_ERROR', `the model replied with nothing to ${trajectory.steps.length === 1 ? 'its one call' : `all ${trajectory.steps.length} calls`}`, { stopReason: trajectory.stopReason });
      }
      // A run that ended unanswered on a reply cut at the length limit ended on a reply the model did not finish:
      // an error (redone on resume), never an empty prediction scored as the model's miss.
      if (trajectory.stopReason !== 'answered' && trajectory.steps.at(-1)?.cut === true) {
        const cut = trajectory.steps.filter((s) => s.cut).length;
        throw new ReponavError('LLM_ERROR', `the run ended unanswered on a reply cut at the length limit (${cut} of ${countOf(trajectory.steps.length, 'reply', 'replies')} cut; stopped: ${trajectory.stopReason})`, { stopReason: trajectory.stopReason });
      }
      if (trajectory.stopReason === 'llm-error' || trajectory.stopReason === 'spend-budget') {
        throw new ReponavError(trajectory.stopReason === 'spend-budget' ? 'BUDGET_EXCEEDED' : 'LLM_ERROR', trajectory.error ?? trajectory.stopReason, {
          stopReason: trajectory.stopReason,
          steps: trajectory.stats.steps,
        });
      }
      return {
        found_files: trajectory.answer.files,
        found_modules: trajectory.answer.modules,
        found_entities: trajectory.answer.functions,
        timings: behaviourTimings(trajectory, { indexMs, viewMs, totalMs: performance.now() - started }),
      };
    },
    async close() {
      await indexes.close();
      await views.close();
    },
  };
}

/** See {@link AgentLocalizer.runFacts}. Paths and run-wide spend caps are left out: they change no prediction. */
function agentRunFacts(modelId: string, resolved: ResolvedModelConfig, interfaceName: string, settings: AgentSettings): Record<string, unknown> {
  let baseUrlHost: string | null = null;
  try {
    baseUrlHost = resolved.provider === 'replay' ? null : new URL(resolved.baseUrl).host;
  } catch {
    baseUrlHost = null;
  }
  return {
    model: modelId,
    provider: resolved.provider,
    baseUrlHost,
    interface: interfaceName,
    effective: {
      maxSteps: settings.maxSteps ?? DEFAULT_MAX_STEPS,
      maxTokens: settings.maxTokens ?? DEFAULT_MAX_TOKENS,
      maxOutputTokens: settings.maxOutputTokens ?? null,
      temperature: settings.temperature ?? 0,
      maxPredictions: settings.maxPredictions ?? 50,
      toolBudgetTokens: settings.toolBudgetTokens ?? null,
      shellTimeoutMs: settings.shellTimeoutMs ?? null,
      shellMaxOutputChars: settings.shellMaxOutputChars ?? null,
      allowAnyCommand: settings.allowAnyCommand ?? false,
      deadlineSeconds: settings.deadlineSeconds ?? DEFAULT_AGENT_DEADLINE_SECONDS,
      embedder: settings.embedder ?? null,
    },
  };
}

/**
 * The numbers the harness records per instance (`meta.timings`, aggregated
 * into mean/p50/p95 in the summary): the paper's behaviour figures plus
 * stage times. Keys ending in `Ms` are milliseconds; flags are 0/1.
 */
export function behaviourTimings(trajectory: Trajectory, stages: { indexMs: number; viewMs: number; totalMs: number }): Record<string, number> {
  const s = trajectory.stats;
  const toolCalls = Object.values(s.toolCalls).reduce((sum, n) => sum + n, 0);
  const timings: Record<string, number> = {
    steps: s.steps,
    inputTokens: s.inputTokens,
    outputTokens: s.outputTokens,
    totalTokens: s.totalTokens,
    toolCalls,
    bashCalls: s.toolCalls.bash ?? 0,
    listSymbolsUsed: s.listSymbolsUsed ? 1 : 0,
    filesInspected: s.filesInspected,
    formatErrors: s.formatErrors,
    refusedCommands: s.refusedCommands,
    refusedRepeats: s.refusedRepeats,
    answered: trajectory.stopReason === 'answered' ? 1 : 0,
    stepBudgetHit: trajectory.stopReason === 'step-budget' ? 1 : 0,
    tokenBudgetHit: trajectory.stopReason === 'token-budget' ? 1 : 0,
    agentMs: round(s.wallMs),
    modelMs: round(s.modelMs),
    toolMs: round(s.toolMs),
    indexMs: round(stages.indexMs),
    viewMs: round(stages.viewMs),
    totalMs: round(stages.totalMs),
  };
  if (s.costUsd !== null) timings.costUsd = s.costUsd;
  return timings;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

async function writeTrace(dir: string, instanceId: string, trace: unknown): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${instanceId.replace(/[^A-Za-z0-9._-]/g, '_')}.json`), `${JSON.stringify(trace, null, 2)}\n`);
}
