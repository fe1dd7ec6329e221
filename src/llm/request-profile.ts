/**
 * Which request parameters an endpoint accepts. Reasoning endpoints refuse
 * parameters chat endpoints require: OpenAI's o-series and gpt-5 reject
 * `max_tokens` ("use max_completion_tokens") and any `temperature` but their
 * default. A profile says what to send; it starts from the model family
 * (or the configuration) and is corrected once from the endpoint's own 400,
 * then kept for the life of the model object (one run).
 */

/** What the client sends for one model. */
export interface RequestProfile {
  /** The body field of the output limit (OpenAI-compatible only; Anthropic always sends `max_tokens`). */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** False when the endpoint refuses `temperature` (it then uses its default). */
  sendTemperature: boolean;
  /** The role system messages are sent with (OpenAI-compatible only): `developer` once the endpoint refuses `system`. */
  systemRole: 'system' | 'developer';
}

/** Parts of a profile set by configuration (`maxTokensField`, `sendTemperature` in the model config or env). */
export type RequestProfileOverrides = Partial<RequestProfile>;

/**
 * The profile a model starts with: OpenAI reasoning families (`o1`, `o3`,
 * `o4-mini`, `gpt-5…`, also behind a router prefix like `openai/o3`) get
 * `max_completion_tokens` and no temperature; every other model `max_tokens`
 * and a temperature. Overrides win.
 */
export function initialRequestProfile(model: string, overrides: RequestProfileOverrides = {}): RequestProfile {
  const name = model.toLowerCase().split('/').pop() ?? '';
  const reasoning = /^(o\d|gpt-5)/.test(name);
  return {
    maxTokensField: overrides.maxTokensField ?? (reasoning ? 'max_completion_tokens' : 'max_tokens'),
    sendTemperature: overrides.sendTemperature ?? !reasoning,
    systemRole: overrides.systemRole ?? 'system',
  };
}

/** A profile corrected from an endpoint's refusal, and what changed (for the trace). */
export interface LearnedProfile {
  profile: RequestProfile;
  change: string;
}

/**
 * What an HTTP 400's message teaches, or null when it is about something
 * else. Reads the wording of OpenAI ("Unsupported parameter: 'max_tokens' …
 * Use 'max_completion_tokens' instead", "Unsupported value: 'temperature' …"),
 * vLLM/LiteLLM and Anthropic ("temperature: …"), and endpoints that take
 * system instructions only in the `developer` role ("'system' … use 'developer'"). One change per call: the
 * retried request may teach the next.
 */
export function learnFromRefusal(profile: RequestProfile, message: string, provider: 'openai-compatible' | 'anthropic'): LearnedProfile | null {
  if (provider === 'openai-compatible' && profile.maxTokensField === 'max_tokens' && /max_tokens/.test(message) && /max_completion_tokens|unsupported|not supported/i.test(message)) {
    return { profile: { ...profile, maxTokensField: 'max_completion_tokens' }, change: 'sending max_completion_tokens instead of max_tokens' };
  }
  if (provider === 'openai-compatible' && profile.systemRole === 'system' && /\bdeveloper\b/i.test(message) && /\bsystem\b/i.test(message)) {
    return { profile: { ...profile, systemRole: 'developer' }, change: "sending system messages with the 'developer' role" };
  }
  if (profile.sendTemperature && /temperature/i.test(message)) {
    return { profile: { ...profile, sendTemperature: false }, change: 'omitting temperature' };
  }
  return null;
}
