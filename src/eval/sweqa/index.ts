/**
 * The SWE-QA harness: repository question answering scored by LLM judges
 * against reference answers (correctness, completeness, relevance, clarity,
 * reasoning; 1–20 each).
 */
export type { AnswerCost, SweqaAnswer, SweqaAnswerer, SweqaAnswerInput } from './answerer.js';
export { runSweqa, type SweqaRunOptions, type SweqaRunResult } from './sweqa-runner.js';
export { buildSweqaSummary, latestRecords, pearson, renderSweqaMarkdown, type JudgeCost, type MeanScores, type SweqaRecord, type SweqaRunConfig, type SweqaSummary } from './sweqa-report.js';
export { JUDGE_SYSTEM, judgeAnswer, judgeMessages, type JudgeResult, type JudgeVerdict } from './judge.js';
export { DIMENSION_RANGE, JUDGE_DIMENSIONS, parseJudgeReply, scoreValue, type DimensionScores, type JudgeDimension, type JudgeParse } from './judge-parser.js';
export { parseRepoCommits, questionType, QUESTION_TYPES, readRepoCommits, readSweqaQuestions, type MalformedQuestion, type SweqaQuestion } from './sweqa-questions.js';
