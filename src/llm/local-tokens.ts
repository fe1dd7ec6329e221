/**
 * Token counts for replies that carry no `usage` (llama.cpp builds, some
 * proxies and gateways): counted here with a real BPE tokenizer, so token
 * budgets (`--max-tokens`) keep holding instead of seeing 0 per call.
 *
 * The encoding is o200k_base (gpt-tokenizer; the GPT-4o / o-series / gpt-5
 * tokenizer) for every model: other models' tokenizers differ by some percent,
 * which is close enough for a budget and far better than characters / 4 on
 * code. Counts made here are marked `counted: 'local'` in the usage. The
 * 4.6 MB rank table is loaded on the first count only.
 */
import { isMissingPackage, ReponavError } from '../errors.js';
import type { ChatMessage } from './chat-model.js';

/** The optional package that counts tokens (peer dependency: the core budgets with its own estimate). */
const TOKENIZER_PACKAGE = 'gpt-tokenizer';

/** The encoding local counts use, named in notes and docs. */
export const LOCAL_TOKEN_ENCODING = 'o200k_base';

/** Per-message framing tokens the chat formats add (role markers), as OpenAI's counting recipe does. */
const PER_MESSAGE = 4;

type Counter = (text: string) => number;
let loading: Promise<Counter> | undefined;

function counter(): Promise<Counter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(
    (m) => (text: string) => m.countTokens(text),
    (error: unknown) => {
      loading = undefined;
      throw tokenizerLoadError(error);
    },
  );
  return loading;
}

/** The install message when gpt-tokenizer is absent; the loader's own explanation when it is there but broken. */
export function tokenizerLoadError(error: unknown): ReponavError {
  const message = error instanceof Error ? error.message : String(error);
  if (!isMissingPackage(error, TOKENIZER_PACKAGE)) return new ReponavError('LLM_ERROR', `The ${TOKENIZER_PACKAGE} package is installed but failed to load (${message}).`);
  return new ReponavError(
    'LLM_ERROR',
    `Counting tokens locally (an endpoint that reports no usage, the reranker's body budget) needs the optional package ${TOKENIZER_PACKAGE}, which is not installed: ` +
      `run \`npm install ${TOKENIZER_PACKAGE}@4\` next to reponav (\`npm install -g ${TOKENIZER_PACKAGE}@4\` for a global install).`,
    { missingPackage: TOKENIZER_PACKAGE },
  );
}

/** Input and output tokens of one call, counted locally. */
export async function countCallTokens(messages: readonly ChatMessage[], output: string): Promise<{ inputTokens: number; outputTokens: number }> {
  const count = await counter();
  const inputTokens = messages.reduce((sum, m) => sum + count(m.content) + PER_MESSAGE, 0);
  return { inputTokens, outputTokens: count(output) };
}

/** The trace note of a locally counted call. */
export const LOCAL_COUNT_NOTE = `the endpoint reported no token usage; tokens counted locally (${LOCAL_TOKEN_ENCODING})`;

/**
 * The o200k_base counter itself, for callers that must fit text into a
 * prompt budget exactly (the reranker's candidate bodies). Loads the rank
 * table on the first call; the returned function is synchronous.
 */
export function loadTokenCounter(): Promise<(text: string) => number> {
  return counter();
}
