/**
 * Predictions files in LocAgent's `loc_outputs.jsonl` shape: one object a line
 * with `instance_id`, `found_files`, `found_modules`, `found_entities` (ranked,
 * best first). Ours add a `meta` object (repo, commit, timings); other tools'
 * extra fields are tolerated and ignored.
 */
import * as z from '../zod-mini.js';
import { dedupePreservingOrder } from './locbench-metrics.js';
import { readJsonlLines } from './jsonl.js';

/** What our runner records next to each prediction. */
export interface PredictionMeta {
  repo: string;
  base_commit: string;
  /** Wall time of the localize call, milliseconds. */
  wall_ms: number;
  /** Stage timings reported by the localizer (ms), when it gave any. */
  timings?: Record<string, number>;
  /** The search's own raw chunk hits, best first (only with the retrieval setting `recordHits`). */
  raw_hits?: { path: string; symbol: string | null; score: number }[];
  /** Raw chunk hits of a second, deeper search (only with `recordHits` above the search's depth). */
  raw_hits_deep?: { path: string; symbol: string | null; score: number }[];
  /** Duplicates removed from the localizer's lists before writing. */
  duplicates_removed: number;
  /** ISO time the line was written. */
  finished_at: string;
}

/** One predictions line. */
export interface PredictionRecord {
  instance_id: string;
  found_files: string[];
  found_modules: string[];
  found_entities: string[];
  meta?: Partial<PredictionMeta> & Record<string, unknown>;
}

const predictionSchema = z.looseObject({
  instance_id: z.string().check(z.minLength(1)),
  // LocAgent would fail on a missing key; we score it as an empty list instead.
  found_files: z._default(z.array(z.string()), []),
  found_modules: z._default(z.array(z.string()), []),
  found_entities: z._default(z.array(z.string()), []),
  meta: z.optional(z.record(z.string(), z.unknown())),
});

/** One line of a predictions file: the record, or why it was rejected. */
export type PredictionLine =
  | { lineNumber: number; ok: true; prediction: PredictionRecord }
  | { lineNumber: number; ok: false; reason: string };

/**
 * Streams a predictions file; malformed lines are yielded with a reason, never
 * thrown. Throws ReponavError FILE_NOT_FOUND only when the file is missing.
 */
export async function* readPredictionLines(path: string): AsyncGenerator<PredictionLine> {
  for await (const line of readJsonlLines(path)) {
    if (!line.ok) {
      yield line;
      continue;
    }
    const parsed = predictionSchema.safeParse(line.value);
    if (parsed.success) {
      yield { lineNumber: line.lineNumber, ok: true, prediction: parsed.data as PredictionRecord };
    } else {
      const reason = parsed.error.issues.map((i) => `${i.path.join('.') || '(line)'}: ${i.message}`).join('; ');
      yield { lineNumber: line.lineNumber, ok: false, reason };
    }
  }
}

/**
 * The ids of instances that already have a valid line in `path` (empty set when
 * the file does not exist). Used to resume a run.
 */
export async function readFinishedInstanceIds(path: string): Promise<Set<string>> {
  const done = new Set<string>();
  try {
    for await (const line of readPredictionLines(path)) if (line.ok) done.add(line.prediction.instance_id);
  } catch (error) {
    if ((error as { code?: string }).code !== 'FILE_NOT_FOUND') throw error;
  }
  return done;
}

/**
 * De-duplicates each ranked list (first occurrence wins) and keeps only the
 * four LocAgent keys. Returns the total number of removed items.
 */
export function dedupePrediction(prediction: {
  instance_id: string;
  found_files: readonly string[];
  found_modules: readonly string[];
  found_entities: readonly string[];
}): { prediction: Omit<PredictionRecord, 'meta'>; duplicatesRemoved: number } {
  const files = dedupePreservingOrder(prediction.found_files);
  const modules = dedupePreservingOrder(prediction.found_modules);
  const entities = dedupePreservingOrder(prediction.found_entities);
  return {
    prediction: {
      instance_id: prediction.instance_id,
      found_files: files.items,
      found_modules: modules.items,
      found_entities: entities.items,
    },
    duplicatesRemoved: files.removed + modules.removed + entities.removed,
  };
}
