/**
 * Repository question answering (a reimplementation of DeepRepoQA's
 * Monte-Carlo tree search) and its baselines (ReAct, function-chunk RAG,
 * direct prompting), with checked citations, hard budgets and JSON traces.
 */
export { askQuestion, costOf, type AskOptions, type AskResult } from './ask-question.js';
export { AskSettingsSchema, DEFAULT_ASK_SETTINGS, resolveAskSettings, type AskSettings, type AskSettingsInput } from './ask-settings.js';
export { ACTION_TYPES, actionKey, describeAction, parseAction, type ParsedAction } from './actions.js';
export { CitationChecker, containsName, namesDefinition, type CitationEnvironment } from './citation-check.js';
export { parseCitations, removeCitations, type ParsedCitation } from './citations.js';
export { answerEvidence, runMctsSearch, type SearchEnvironment, type SearchOutcome, type SearchProgress } from './mcts-search.js';
export { SearchTree, meanValue } from './search-tree.js';
export { canExpand, selectNode, uctScore, type SelectionLimits } from './uct.js';
export { PlateauDetector } from './plateau-detector.js';
export { RunBudget, SearchStop } from './run-budget.js';
export { EVALUATION_RUBRIC } from './role-prompts.js';
export { writeAskTrace } from './trace-file.js';
export * from './trace-types.js';
export type { AskMethod, AskTrace } from './trace-types.js';
export { MAX_IDENTICAL_ACTIONS, RepeatGuard, repeatRefusal, toolCallKey } from './repeat-guard.js';
