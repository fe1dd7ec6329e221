/**
 * `eval analyze`: the papers' analyses over recorded runs — paired
 * comparison (shared with `eval compare`), failure taxonomy, parameter
 * sweeps from recorded raw hits, complexity strata, the agent-mode evidence
 * funnel and the SWE-QA budget curve — as one JSON document and Markdown.
 * Each analysis is a pure function in its own file; analyze-runs.ts loads
 * the runs and composes them.
 */
export { analyzeRuns, isAnalysisDocument, type AnalysisDocument, type AnalyzeOptions } from './analyze-runs.js';
export { renderAnalysisMarkdown } from './render-analysis.js';
export { summaryPathOf } from './load-run.js';
export { classifyMiss, failureTaxonomy, MISS_CLASSES, type FailureTaxonomy, type MissClass } from './failure-taxonomy.js';
export { parameterSweep, rankFiles, SWEEP_GRID, type ParameterSweep, type SweepRow } from './parameter-sweep.js';
export { complexityStrata, type ComplexityStrata, type GoldFileFacts } from './complexity-strata.js';
export { evidenceFunnel, type EvidenceFunnel } from './evidence-funnel.js';
export { sweqaBudgetCurve, type SweqaBudgetCurve } from './sweqa-budget.js';
