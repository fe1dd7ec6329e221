/**
 * Public surface of the evaluation layer: the LocBench harness (instances,
 * runner, progress, metrics, scoring, reports, comparisons, analyses, the
 * retrieval localizer); the SWE-QA harness is entered through sweqa/index.ts.
 * The `eval` commands that drive it are the CLI's (cli/commands/eval-command.ts).
 */
export { assertLocbenchSummary, buildSummary, compareSummaries, renderSummaryMarkdown, type LocbenchSummary } from './report.js';
export { readLocbenchInstances, skippedLinesNote } from './locbench-instances.js';
export { createProgressReporter, type ProgressStream } from './progress-reporter.js';
export { compareRuns, loadRunScores, renderComparisonMarkdown, type RunComparison } from './compare-runs.js';
export { DEFAULT_BOOTSTRAP } from './paired-bootstrap.js';
export { scorePredictions } from './score-predictions.js';
export { createRetrievalLocalizer, type AfterRetrieval } from './retrieval-localizer.js';
export { createRerankLocalizer, RerankRunSettingsSchema, rerankTimings, type RerankLocalizerDeps } from './rerank-localizer.js';
export { RetrievalSettingsSchema } from './retrieval-settings.js';
export {
  createLocbenchLocalizer,
  LOCBENCH_MODES,
  type InstanceLocalizer,
  type LocalizationPrediction,
  type LocalizeInput,
  type LocalizerFactory,
  type LocbenchLocalizerConfig,
  type LocbenchMode,
} from './localizer.js';
export { runLocbench } from './locbench-runner.js';
export { analyzeRuns, isAnalysisDocument, renderAnalysisMarkdown, summaryPathOf, type AnalysisDocument } from './analyze/index.js';
