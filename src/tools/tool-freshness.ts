/**
 * The freshness gate of a tool call: refresh the repository (cheap when
 * nothing changed), forwarding indexing progress to the caller and giving up
 * waiting after the context's indexWaitMs.
 */
import type { FreshnessResult, RepositoryHandle } from './repository-set.js';
import type { ToolContext } from './tool-types.js';
import { countOf } from '../plural.js';

/** `indexing app: 120/800 files` */
export function progressMessage(repository: string, done: number, total: number): string {
  return `indexing ${repository}: ${done}/${countOf(total, 'file')}`;
}

/** Waits for `repository` to be fresh under the context's wait limit and progress callback. */
export function freshenForCall(repository: RepositoryHandle, context: ToolContext): Promise<FreshnessResult> {
  const onProgress = context.onProgress;
  return repository.ensureFresh({
    waitMs: context.indexWaitMs,
    onProgress: onProgress
      ? (p) => onProgress({ repository: repository.name, done: p.done, total: p.total, message: progressMessage(repository.name, p.done, p.total) })
      : undefined,
  });
}

/** The answer to a call that stopped waiting for indexing (not an error: the index keeps building). */
export function stillIndexingText(repository: string, progress: { done: number; total: number } | null, next: string): string {
  const done = progress ? ` (${progress.done} of ${progress.total} changed files so far)` : '';
  return `Indexing repository '${repository}'${done}; it continues in the background. ${next}`;
}
