/**
 * The retrieval settings `reponav eval locbench --config-json` accepts: the
 * search's own settings (the user's choices and the tuning knobs nested by
 * stage, retrieve/tuning/schema.ts: one schema, shared) and the
 * localizer's. Checked by value and by name, so a misspelt, mistyped or moved
 * setting is a BAD_INPUT error naming it rather than a run that silently used
 * the default.
 */
import * as z from '../zod-mini.js';
import type { TunedSearchOptions } from '../retrieve/index.js';
import { tuningSchemas } from '../retrieve/tuning/index.js';

const { searchChoiceSettings, retrievalTuningSettings } = tuningSchemas();

/** Retrieval settings accepted in `--config-json` (all optional; defaults are the tuned ones). */
export const RetrievalSettingsSchema = z.partial(z.strictObject({
  ...searchChoiceSettings,
  ...retrievalTuningSettings,
  /** Folder for the per-repository commit indexes; default: the user cache. */
  indexDir: z.string(),
  /** How many predictions per level are written. */
  maxPredictions: z.number().check(z.int(), z.positive()),
  /**
   * Also record raw chunk hits per instance, so `eval analyze` can recompute
   * file aggregation for other α, m and depths without searching again:
   * `raw_hits`, the search's own aggregated hits (its top `aggregation.topChunks`), and
   * when this number is larger, `raw_hits_deep`, the top this-many hits of a
   * second search at that depth. Predictions are unchanged; off by default.
   */
  recordHits: z.number().check(z.int(), z.positive(), z.lte(1000)),
}));

/** Accepted retrieval settings. */
export type RetrievalSettings = z.infer<typeof RetrievalSettingsSchema>;

/** The search settings of `settings` (the others are the localizer's own). */
export function searchOptionsOf(settings: RetrievalSettings): TunedSearchOptions {
  const { indexDir: _indexDir, maxPredictions: _maxPredictions, recordHits: _recordHits, ...search } = settings;
  return search;
}
