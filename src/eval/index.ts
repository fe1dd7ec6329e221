/**
 * Public surface of the evaluation layer: the LocBench harness (instances,
 * runner, metrics, reports, the retrieval localizer) and the eval commands;
 * the SWE-QA harness is entered through sweqa/index.ts.
 */
export { assertLocbenchSummary, type LocbenchSummary } from './report.js';
export { registerEvalCommands, type EvalCommandDeps } from './eval-command.js';
export { createRetrievalLocalizer } from './retrieval-localizer.js';
export { RetrievalSettingsSchema } from './retrieval-settings.js';
export {
  createLocbenchLocalizer,
  type InstanceLocalizer,
  type LocalizationPrediction,
  type LocalizeInput,
  type LocalizerFactory,
  type LocbenchLocalizerConfig,
  type LocbenchMode,
} from './localizer.js';
export { runLocbench } from './locbench-runner.js';
export { isAnalysisDocument, type AnalysisDocument } from './analyze/index.js';
