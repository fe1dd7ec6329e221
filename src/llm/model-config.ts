/**
 * Config → ChatModel. One validated shape covers hosted APIs, local servers
 * and offline replay, with defaults from the conventional environment
 * variables so `REPONAV_LLM_MODEL=ollama:qwen2.5-coder` is a complete setup.
 */
import * as z from '../zod-mini.js';
import { ReponavError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { ANTHROPIC_DEFAULT_BASE_URL, createAnthropicModel } from './anthropic-model.js';
import type { ChatModel } from './chat-model.js';
import { DEFAULT_TIMEOUT_MS, createOpenAICompatibleModel } from './openai-compatible-model.js';
import { createPriceTable, type PriceTable } from './pricing.js';
import type { RequestProfileOverrides } from './request-profile.js';
import type { RetryPolicy } from './retry.js';
import { createReplayModel, withRecording } from './transcript.js';

const PriceSchema = z.strictObject({ inputPerMTok: z.number().check(z.gte(0)), outputPerMTok: z.number().check(z.gte(0)) });

/**
 * The model config accepted by {@link createChatModel}. Every field is
 * optional at this level because environment variables can supply them;
 * `createChatModel` reports what is still missing.
 *
 * - `model`: a name, or `prefix:name` with prefix one of `openai`, `anthropic`,
 *   `ollama`, `openrouter`, `openai-compatible`, `replay` (the prefix implies the provider).
 * - `maxRetries`: retries after the first attempt (default 3, i.e. 4 attempts).
 * - `transcriptPath`: for `replay`, the transcript to answer from; otherwise
 *   every call is recorded there.
 * - `prices`: USD per million tokens, merged over the built-in table.
 * - `maxTokensField`: `max_tokens` or `max_completion_tokens` (OpenAI-compatible
 *   only; default from the model family, see request-profile.ts).
 * - `sendTemperature`: false for endpoints that refuse `temperature`.
 *   Both are also learned from the endpoint's first HTTP 400 refusing them.
 */
/**
 * The provider implementations a config can resolve to: a closed set. Each is
 * handled by an exhaustive switch in {@link resolveModelConfig} and
 * {@link createChatModel}, so a provider added here without its defaults and
 * its model factory fails to compile.
 */
export const MODEL_PROVIDERS = ['openai-compatible', 'anthropic', 'replay'] as const;

/** Which provider implementation a config resolves to. */
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export const ModelConfigSchema = z.strictObject({
  provider: z.optional(z.enum(MODEL_PROVIDERS)),
  model: z.optional(z.string().check(z.minLength(1))),
  baseUrl: z.optional(z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' })),
  apiKey: z.optional(z.string().check(z.minLength(1))),
  apiKeyEnv: z.optional(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'))),
  timeoutMs: z.optional(z.number().check(z.int(), z.positive())),
  maxRetries: z.optional(z.number().check(z.int(), z.gte(0), z.lte(20))),
  retryBaseDelayMs: z.optional(z.number().check(z.gte(0))),
  maxRetryWaitMs: z.optional(z.number().check(z.gte(0))),
  transcriptPath: z.optional(z.string().check(z.minLength(1))),
  prices: z.optional(z.record(z.string(), PriceSchema)),
  maxTokensField: z.optional(z.enum(['max_tokens', 'max_completion_tokens'])),
  sendTemperature: z.optional(z.boolean()),
});

/** Input type of {@link ModelConfigSchema}. */
export type ModelConfig = z.input<typeof ModelConfigSchema>;

/**
 * Whose model this is, which picks its environment variables: the answering
 * model reads `REPONAV_LLM_MODEL`, `REPONAV_LLM_BASE_URL`, `REPONAV_LLM_API_KEY`,
 * `REPONAV_LLM_MAX_TOKENS_FIELD`, `REPONAV_LLM_SEND_TEMPERATURE`; a judge reads
 * `REPONAV_JUDGE_BASE_URL`, `REPONAV_JUDGE_API_KEY`, `REPONAV_JUDGE_MAX_TOKENS_FIELD`,
 * `REPONAV_JUDGE_SEND_TEMPERATURE` and never the `REPONAV_LLM_*` ones, so a local
 * answering model and hosted `openai:` judges can be configured together.
 */
export type ModelRole = 'answer' | 'judge';

/**
 * A fully resolved config. Contains the API key: never log or serialize it
 * whole; `apiKeySource` says where the key came from for diagnostics.
 */
export interface ResolvedModelConfig {
  provider: ModelProvider;
  /** The `id` prefix: `openai`, `ollama`, `openrouter`, `openai-compatible`, `anthropic`, `replay`. */
  label: string;
  model: string;
  baseUrl: string;
  apiKey: string;
  apiKeySource: string;
  timeoutMs: number;
  retry: Partial<RetryPolicy>;
  transcriptPath?: string;
  prices: PriceTable;
  /** Request parameters set by config or env; the rest comes from the model family and the endpoint's refusals. */
  requestProfile: RequestProfileOverrides;
}

/** Collaborators for {@link createChatModel}; all optional. */
export interface ModelFactoryDeps {
  /** Environment to read defaults from. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Which environment variables configure this model (see {@link ModelRole}). Default `answer`. */
  role?: ModelRole;
  logger?: Logger;
  fetch?: typeof fetch;
}

interface Alias {
  provider: ModelProvider;
  label: string;
  baseUrl?: string;
  keyEnv?: string;
}

const ALIASES: Record<string, Alias> = {
  openai: { provider: 'openai-compatible', label: 'openai', keyEnv: 'OPENAI_API_KEY' },
  'openai-compatible': { provider: 'openai-compatible', label: 'openai-compatible', keyEnv: 'OPENAI_API_KEY' },
  ollama: { provider: 'openai-compatible', label: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1' },
  openrouter: { provider: 'openai-compatible', label: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY' },
  anthropic: { provider: 'anthropic', label: 'anthropic', keyEnv: 'ANTHROPIC_API_KEY' },
  replay: { provider: 'replay', label: 'replay' },
};

const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * Split `prefix:name` when `prefix` is a known provider alias; otherwise the
 * whole string is the model name (so `qwen2.5-coder:7b` stays intact).
 */
export function parseModelSpec(spec: string): { alias?: string; name: string } {
  const colon = spec.indexOf(':');
  if (colon > 0) {
    const prefix = spec.slice(0, colon).toLowerCase();
    if (prefix in ALIASES) return { alias: prefix, name: spec.slice(colon + 1) };
  }
  return { name: spec };
}

/**
 * Validate `config` and fill gaps from `env`. Throws `ReponavError('BAD_INPUT')`
 * for an invalid shape and `ReponavError('LLM_ERROR')` for a missing model,
 * transcript or API key (naming the variables that would supply it).
 *
 * Precedence: config field > `REPONAV_LLM_*` (a judge: `REPONAV_JUDGE_*`) > provider alias default >
 * provider environment (`OPENAI_*`, `ANTHROPIC_*`) > built-in default.
 * An API key is optional only for loopback servers (localhost, 127.x, ::1).
 */
export function resolveModelConfig(config: ModelConfig = {}, env: Record<string, string | undefined> = process.env, role: ModelRole = 'answer'): ResolvedModelConfig {
  const prefix = role === 'judge' ? 'REPONAV_JUDGE_' : 'REPONAV_LLM_';
  const parsed = ModelConfigSchema.safeParse(config);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new ReponavError('BAD_INPUT', `Invalid model config: ${issues}`, { issues: parsed.error.issues });
  }
  const c = parsed.data;
  const spec = c.model ?? (role === 'answer' ? nonEmpty(env.REPONAV_LLM_MODEL) : undefined);
  const { alias: aliasName, name } = spec ? parseModelSpec(spec) : { alias: undefined, name: '' };
  const alias = aliasName ? ALIASES[aliasName] : undefined;
  if (alias && c.provider && alias.provider !== c.provider) {
    throw new ReponavError('BAD_INPUT', `Model "${spec}" implies provider ${alias.provider}, but the config says provider ${c.provider}`);
  }
  const provider: ModelProvider = c.provider ?? alias?.provider ?? 'openai-compatible';
  const retry: Partial<RetryPolicy> = {
    maxAttempts: c.maxRetries === undefined ? undefined : c.maxRetries + 1,
    baseDelayMs: c.retryBaseDelayMs,
    maxTotalWaitMs: c.maxRetryWaitMs,
  };
  const common = {
    timeoutMs: c.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry,
    prices: createPriceTable(c.prices),
    transcriptPath: c.transcriptPath,
    requestProfile: requestProfileOf(c, env, prefix),
  };

  if (provider === 'replay') {
    if (!c.transcriptPath) {
      throw new ReponavError('LLM_ERROR', 'The replay provider needs transcriptPath: the JSONL transcript recorded from a live model.');
    }
    return { ...common, provider, label: 'replay', model: name, baseUrl: c.transcriptPath, apiKey: '', apiKeySource: 'none' };
  }
  if (!name) {
    throw new ReponavError(
      'LLM_ERROR',
      role === 'judge'
        ? 'No judge model configured: name one with --judges, e.g. openai:gpt-4o-mini or anthropic:claude-sonnet-4-5.'
        : 'No LLM model configured: name one, e.g. openai:gpt-4o-mini, anthropic:claude-sonnet-4-5 or ollama:qwen2.5-coder, with --model for ask, localize and sweqa ' +
          '("model" in --config-json for eval), or set the REPONAV_LLM_MODEL environment variable.',
      // The CLI names the one option of the command that was run (noModelMessage in run-program.ts).
      role === 'judge' ? undefined : { missing: 'model' },
    );
  }

  let baseUrl: string;
  let label: string;
  let keyEnvs: string[];
  switch (provider) {
    case 'anthropic':
      baseUrl = c.baseUrl ?? nonEmpty(env.ANTHROPIC_BASE_URL) ?? ANTHROPIC_DEFAULT_BASE_URL;
      label = 'anthropic';
      keyEnvs = ['ANTHROPIC_API_KEY'];
      break;
    case 'openai-compatible':
      baseUrl = c.baseUrl ?? nonEmpty(env[`${prefix}BASE_URL`]) ?? alias?.baseUrl ?? nonEmpty(env.OPENAI_BASE_URL) ?? OPENAI_DEFAULT_BASE_URL;
      label = alias?.label ?? (hostOf(baseUrl) === 'api.openai.com' ? 'openai' : 'openai-compatible');
      // The OpenAI key is never sent to an alias host it was not meant for (ollama, openrouter).
      keyEnvs = [`${prefix}API_KEY`, ...(alias ? (alias.keyEnv ? [alias.keyEnv] : []) : ['OPENAI_API_KEY'])];
      break;
    default:
      return unhandledProvider(provider);
  }
  if (c.baseUrl === undefined && !/^https?:\/\//i.test(baseUrl)) {
    throw new ReponavError('BAD_INPUT', `LLM base URL from the environment is not an http(s) URL: ${baseUrl}`);
  }

  let apiKey: string | undefined;
  let apiKeySource = 'none';
  if (c.apiKey) {
    apiKey = c.apiKey;
    apiKeySource = 'config';
  } else if (c.apiKeyEnv) {
    apiKey = nonEmpty(env[c.apiKeyEnv]);
    if (!apiKey) throw new ReponavError('LLM_ERROR', `The model config names apiKeyEnv ${c.apiKeyEnv}, but that environment variable is not set.`);
    apiKeySource = `env:${c.apiKeyEnv}`;
  } else {
    for (const key of keyEnvs) {
      apiKey = nonEmpty(env[key]);
      if (apiKey) {
        apiKeySource = `env:${key}`;
        break;
      }
    }
  }
  if (!apiKey) {
    if (!isLoopback(baseUrl)) {
      throw new ReponavError(
        'LLM_ERROR',
        `No API key for ${label}:${name} at ${baseUrl}. Set ${keyEnvs.join(' or ')}, or "apiKey"/"apiKeyEnv" in the model config. ` +
          '(A self-hosted server that needs no key still needs a placeholder when it is not on localhost.)',
        { model: `${label}:${name}`, baseUrl },
      );
    }
    // Local servers ignore the key, but the OpenAI SDK insists on one.
    apiKey = 'no-key';
  }
  return { ...common, provider, label, model: name, baseUrl, apiKey, apiKeySource };
}

/**
 * Build the ChatModel a config describes (see {@link resolveModelConfig} for
 * validation and env defaults). With `transcriptPath` on a live provider the
 * model records every call there. Budget metering is left to the caller
 * (`withUsageMeter`) because one meter usually spans several models.
 */
export function createChatModel(config: ModelConfig = {}, deps: ModelFactoryDeps = {}): ChatModel {
  const logger = deps.logger ?? silentLogger;
  const r = resolveModelConfig(config, deps.env ?? process.env, deps.role);
  const common = { model: r.model, apiKey: r.apiKey, timeoutMs: r.timeoutMs, retry: r.retry, prices: r.prices, logger, fetch: deps.fetch };
  let model: ChatModel;
  switch (r.provider) {
    case 'replay':
      return createReplayModel(r.transcriptPath!, { model: r.model || undefined });
    case 'anthropic':
      model = createAnthropicModel({ ...common, baseUrl: r.baseUrl, ...(r.requestProfile.sendTemperature !== undefined ? { sendTemperature: r.requestProfile.sendTemperature } : {}) });
      break;
    case 'openai-compatible':
      model = createOpenAICompatibleModel({ ...common, baseUrl: r.baseUrl, providerLabel: r.label, requestProfile: r.requestProfile });
      break;
    default:
      return unhandledProvider(r.provider);
  }
  logger.debug(`LLM ${model.id} at ${r.baseUrl} (key from ${r.apiKeySource})`);
  return r.transcriptPath ? withRecording(model, r.transcriptPath, { logger }) : model;
}

/** The `default` of a switch over {@link ModelProvider}: compiles only while every provider has its case. */
function unhandledProvider(provider: never): never {
  throw new ReponavError('BAD_INPUT', `Unknown model provider ${String(provider)}; the providers are ${MODEL_PROVIDERS.join(', ')}.`);
}

/** `maxTokensField` / `sendTemperature` from the config, else `<prefix>MAX_TOKENS_FIELD` / `<prefix>SEND_TEMPERATURE`. */
function requestProfileOf(c: z.output<typeof ModelConfigSchema>, env: Record<string, string | undefined>, prefix: string): RequestProfileOverrides {
  const out: RequestProfileOverrides = {};
  const field = c.maxTokensField ?? nonEmpty(env[`${prefix}MAX_TOKENS_FIELD`]);
  if (field !== undefined) {
    if (field !== 'max_tokens' && field !== 'max_completion_tokens') {
      throw new ReponavError('BAD_INPUT', `${prefix}MAX_TOKENS_FIELD must be max_tokens or max_completion_tokens, got ${field}`);
    }
    out.maxTokensField = field;
  }
  const temperature = c.sendTemperature ?? nonEmpty(env[`${prefix}SEND_TEMPERATURE`])?.toLowerCase();
  if (temperature !== undefined) {
    if (typeof temperature === 'boolean') out.sendTemperature = temperature;
    else if (['1', 'true', 'yes'].includes(temperature)) out.sendTemperature = true;
    else if (['0', 'false', 'no'].includes(temperature)) out.sendTemperature = false;
    else throw new ReponavError('BAD_INPUT', `${prefix}SEND_TEMPERATURE must be true or false, got ${temperature}`);
  }
  return out;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

function isLoopback(url: string): boolean {
  const host = hostOf(url);
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
