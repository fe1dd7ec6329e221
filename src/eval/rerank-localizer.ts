/**
 * Rerank mode of the LocBench harness (`eval locbench --mode rerank`): the
 * retrieval localizer, then the model reranker over its top functions
 * (retrieve/rerank). Model failures are skips (retried on resume), unless the
 * settings ask for `onFailure: "retrieval-order"`, which keeps the retrieval
 * order and counts it (`rerankFallback` in the timings). One UsageMeter spans
 * the run, so `maxUsd` / `maxTotalTokens` cap its total spend.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from '../zod-mini.js';
import { ReponavError } from '../errors.js';
import { createChatModel, ModelConfigSchema, resolveModelConfig, UsageMeter, withUsageMeter, type ChatModel, type ModelConfig } from '../llm/index.js';
import { silentLogger, type Logger } from '../logger.js';
import { rerankCandidates, rerankCandidatesOf, resolveRerankSettings, type RerankSettings, type RerankTrace } from '../retrieve/rerank/index.js';
import type { InstanceLocalizer, LocbenchLocalizerConfig } from './localizer.js';
import { createRetrievalLocalizer } from './retrieval-localizer.js';

/**
 * The reranker's keys of `--config-json` (every other key is a retrieval
 * setting, passed to the retrieval localizer):
 *
 * - `model`: a spec or a model config, as in agent mode (default `REPONAV_LLM_MODEL` & co.);
 * - `candidates`, `window`, `step`, `bodyTokens`, `issueTokens`, `maxOutputTokens`, `temperature`: see RerankSettings;
 * - `deadlineSeconds`: per instance; `onFailure`: `error` (default) or `retrieval-order`;
 * - `maxUsd`, `maxTotalTokens`: ceilings over the whole run; `traceDir`: one `<instance>.json` rerank trace each.
 */
export const RerankRunSettingsSchema = z.strictObject({
  model: z.optional(z.union([z.string().check(z.minLength(1)), ModelConfigSchema])),
  candidates: z.optional(z.number().check(z.int(), z.positive())),
  window: z.optional(z.number().check(z.int(), z.gte(2))),
  step: z.optional(z.number().check(z.int(), z.positive())),
  bodyTokens: z.optional(z.number().check(z.int(), z.positive())),
  issueTokens: z.optional(z.number().check(z.int(), z.positive())),
  maxOutputTokens: z.optional(z.number().check(z.int(), z.positive())),
  temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
  deadlineSeconds: z.optional(z.number().check(z.positive())),
  onFailure: z.optional(z.enum(['error', 'retrieval-order'])),
  maxUsd: z.optional(z.number().check(z.positive())),
  maxTotalTokens: z.optional(z.number().check(z.int(), z.positive())),
  traceDir: z.optional(z.string().check(z.minLength(1))),
}).check(
  z.refine((s) => typeof s.model !== 'object' || s.model.apiKey === undefined, {
    message: 'do not put API keys in --config-json (it is recorded in run.json); use the environment (e.g. OPENAI_API_KEY) or apiKeyEnv',
    path: ['model', 'apiKey'],
  }),
);

const RERANK_KEYS: readonly string[] = Object.keys(RerankRunSettingsSchema.shape);

/** Collaborators of {@link createRerankLocalizer}. */
export interface RerankLocalizerDeps {
  logger?: Logger;
  /** Environment for model defaults; default `process.env`. */
  env?: Record<string, string | undefined>;
}

/**
 * Builds the rerank localizer. Throws BAD_INPUT for bad settings and
 * LLM_ERROR when no model is configured. `runFacts` records the model used,
 * its provider and base URL host, and the effective rerank settings, so a
 * resume with another model or window is refused.
 */
export async function createRerankLocalizer(config: LocbenchLocalizerConfig, deps: RerankLocalizerDeps = {}): Promise<InstanceLocalizer & { readonly meter: UsageMeter; readonly model: ChatModel }> {
  const logger = deps.logger ?? silentLogger;
  const { rerank: rerankPart, retrieval } = splitSettings(config.settings ?? {});
  const parsed = RerankRunSettingsSchema.safeParse(rerankPart);
  if (!parsed.success) {
    throw new ReponavError('BAD_INPUT', `--config-json: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
  const settings = parsed.data;
  const rerank: RerankSettings = resolveRerankSettings({
    candidates: settings.candidates,
    window: settings.window,
    step: settings.step,
    bodyTokens: settings.bodyTokens,
    issueTokens: settings.issueTokens,
    maxOutputTokens: settings.maxOutputTokens,
    temperature: settings.temperature,
    deadlineMs: settings.deadlineSeconds !== undefined ? Math.round(settings.deadlineSeconds * 1000) : null,
    onFailure: settings.onFailure,
  });
  const modelConfig: ModelConfig = typeof settings.model === 'string' ? { model: settings.model } : (settings.model ?? {});
  const meter = new UsageMeter({ maxCostUsd: settings.maxUsd, maxTokens: settings.maxTotalTokens }, { logger });
  const model = withUsageMeter(createChatModel(modelConfig, { env: deps.env, logger }), meter);
  const runFacts = rerankRunFacts(model.id, modelConfig, deps.env ?? process.env, rerank);
  const inner = await createRetrievalLocalizer({ ...config, mode: 'retrieval', settings: retrieval }, logger, {
    prepare(store, input, result) {
      const top = result.functions.slice(0, rerank.candidates);
      const candidates = rerankCandidatesOf(store, top);
      const rest = result.functions.slice(rerank.candidates).map((f) => `${f.path}:${f.qualifiedName}`);
      return async () => {
        const outcome = await rerankCandidates(model, input.query, candidates, rerank, { logger });
        if (settings.traceDir) await writeTrace(settings.traceDir, input.instanceId, { instanceId: input.instanceId, repo: input.repo, commit: input.commit, ...outcome.trace });
        return { functions: [...outcome.candidates.map((c) => c.id), ...rest], timings: rerankTimings(outcome.trace) };
      };
    },
  });
  // The retrieval the reranker starts from is recorded too (its ranker and model), so a resume cannot mix two retrievals.
  return { localize: inner.localize, close: () => inner.close?.() ?? Promise.resolve(), meter, model, runFacts: { ...inner.runFacts, ...runFacts } };
}

/** The reranker's own keys and the retrieval settings, apart. */
function splitSettings(settings: Record<string, unknown>): { rerank: Record<string, unknown>; retrieval: Record<string, unknown> } {
  const rerank: Record<string, unknown> = {};
  const retrieval: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) (RERANK_KEYS.includes(key) ? rerank : retrieval)[key] = value;
  return { rerank, retrieval };
}

function rerankRunFacts(modelId: string, modelConfig: ModelConfig, env: Record<string, string | undefined>, rerank: RerankSettings): Record<string, unknown> {
  const resolved = resolveModelConfig(modelConfig, env);
  let baseUrlHost: string | null = null;
  try {
    baseUrlHost = resolved.provider === 'replay' ? null : new URL(resolved.baseUrl).host;
  } catch {
    baseUrlHost = null;
  }
  return { model: modelId, provider: resolved.provider, baseUrlHost, rerank: { ...rerank } };
}

/**
 * What one rerank cost and did, as the harness aggregates it (mean/p50/p95
 * in the summary): calls, tokens, cost when priced, the identifiers the
 * replies got wrong, cut replies, re-asks, whether the retrieval order was
 * kept after a failure, and the time.
 */
export function rerankTimings(trace: RerankTrace): Record<string, number> {
  return {
    rerankCalls: trace.calls,
    rerankInputTokens: trace.inputTokens,
    rerankOutputTokens: trace.outputTokens,
    rerankTotalTokens: trace.inputTokens + trace.outputTokens,
    ...(trace.costUsd !== null && trace.calls > 0 ? { rerankCostUsd: trace.costUsd } : {}),
    rerankCandidates: trace.input.length,
    rerankUnknownIds: trace.unknownIds,
    rerankRepeatedIds: trace.repeatedIds,
    rerankMissingIds: trace.missingIds,
    rerankCutReplies: trace.cutReplies,
    rerankReasks: trace.reasks,
    rerankFallback: trace.fallback ? 1 : 0,
    rerankMs: trace.wallMs,
  };
}

async function writeTrace(dir: string, instanceId: string, trace: unknown): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${instanceId.replace(/[^A-Za-z0-9._-]/g, '_')}.json`), `${JSON.stringify(trace, null, 2)}\n`);
}
