/**
 * Public surface of the LLM layer: the `ChatModel` interface, provider
 * factories, composable wrappers (usage metering, recording), offline replay,
 * pricing, retry policy and JSON-reply parsing.
 */
export type { ChatMessage, ChatModel, ChatRequest, ChatResponse, ChatUsage, NativeToolCall } from './chat-model.js';
export {
  createOpenAICompatibleModel,
  DEFAULT_TIMEOUT_MS,
  type OpenAICompatibleModelOptions,
} from './openai-compatible-model.js';
export {
  ANTHROPIC_API_VERSION,
  ANTHROPIC_DEFAULT_BASE_URL,
  createAnthropicModel,
  type AnthropicModelOptions,
} from './anthropic-model.js';
export {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  failureCause,
  isRetryable,
  llmFailureCause,
  LlmTransportError,
  parseRetryAfter,
  redactSecrets,
  resolveRetryPolicy,
  toLlmError,
  withRetry,
  type HeaderSource,
  type LlmFailureCause,
  type RetryContext,
  type RetryPolicy,
  type TransportFailureKind,
} from './retry.js';
export { costOf, createPriceTable, DEFAULT_PRICES, lookupPrice, type ModelPrice, type PriceTable } from './pricing.js';
export { UsageMeter, withUsageMeter, type UsageCeiling, type UsageSnapshot, type UsageTotals } from './usage-meter.js';
export {
  createReplayModel,
  readTranscript,
  requestHash,
  TRANSCRIPT_VERSION,
  withRecording,
  type ReplayModelOptions,
  type TranscriptEntry,
} from './transcript.js';
export {
  createChatModel,
  ModelConfigSchema,
  parseModelSpec,
  resolveModelConfig,
  type ModelConfig,
  type ModelFactoryDeps,
  type ModelProvider,
  type ModelRole,
  type ResolvedModelConfig,
} from './model-config.js';
export {
  correctiveMessage,
  jsonObjectSpans,
  parseJsonReply,
  type JsonReplyError,
  type JsonReplyIssue,
  type JsonReplyResult,
} from './json-reply.js';
export { splitReasoning, type SplitReply } from './reply-text.js';
export { classifyReply, isCutReason, outcomeSentence, type ReplyFacts, type ReplyOutcome, type UsableOutcome } from './reply-outcome.js';
export { initialRequestProfile, learnFromRefusal, type LearnedProfile, type RequestProfile, type RequestProfileOverrides } from './request-profile.js';
export { LOCAL_TOKEN_ENCODING, loadTokenCounter } from './local-tokens.js';
export { EMPTY_TURN_PLACEHOLDER } from './provider-reply.js';
