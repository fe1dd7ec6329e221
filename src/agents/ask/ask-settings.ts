/**
 * Settings of one `ask` run, with the paper's defaults (15 iterations, ≤ 3
 * children per expansion, UCT constant √2, exploration temperature 0.7,
 * answer temperature 0) and the budget knobs added on top of it. The plateau
 * stop is our addition and off by default (window 0): the paper searches
 * until Finish or the iteration limit. Evaluation scores with the paper's
 * rubric unless `rubric: 'reponav'` picks ours.
 */
import * as z from '../../zod-mini.js';
import { ReponavError } from '../../errors.js';

/** Early stop when the best node score stops improving (our addition, not in the paper; off by default). */
export const PlateauSchema = z.strictObject({
  /** Iterations looked back over; 0 disables the check. */
  window: z.number().check(z.int(), z.gte(0)),
  /** Improvement (score points, 0–100 scale) below which the search counts as flat. */
  epsilon: z.number().check(z.gte(0)),
});

/** Every setting, all optional on input; see {@link DEFAULT_ASK_SETTINGS}. */
export const AskSettingsSchema = z.strictObject({
  iterations: z.number().check(z.int(), z.gte(1), z.lte(1000)),
  maxChildren: z.number().check(z.int(), z.gte(1), z.lte(10)),
  uctC: z.number().check(z.gte(0)),
  maxDepth: z.number().check(z.int(), z.gte(1), z.lte(50)),
  explorationTemperature: z.number().check(z.gte(0), z.lte(2)),
  answerTemperature: z.number().check(z.gte(0), z.lte(2)),
  /** Hard ceiling on input + output tokens of the whole answer (search + synthesis). */
  budgetTokens: z.optional(z.number().check(z.int(), z.positive())),
  /** Hard ceiling on the priced spend (USD) of the whole answer; checked before each call (stop reason budget-cost). */
  budgetUsd: z.optional(z.number().check(z.positive())),
  /** Hard ceiling on wall time of the whole answer. */
  budgetSeconds: z.optional(z.number().check(z.positive())),
  /** Share of each budget kept back for writing the answer once the search stops. */
  answerReserve: z.number().check(z.gte(0), z.lte(0.9)),
  plateau: PlateauSchema,
  /** Evaluation rubric: DeepRepoQA's (default) or ours, which penalises steps that find nothing. */
  rubric: z.enum(['deeprepoqa', 'reponav']),
  /** Evidence items kept per action after ranking and dedupe. */
  maxEvidencePerAction: z.number().check(z.int(), z.gte(1), z.lte(50)),
  /** Evidence items handed to answer synthesis. */
  maxAnswerEvidence: z.number().check(z.int(), z.gte(1), z.lte(100)),
  /** Source lines kept in one evidence excerpt. */
  excerptLines: z.number().check(z.int(), z.gte(1), z.lte(400)),
  /** Function chunks retrieved by the RAG baseline. */
  ragTopK: z.number().check(z.int(), z.gte(1), z.lte(100)),
  /** Max output tokens per role call (answers get twice this). */
  maxReplyTokens: z.number().check(z.int(), z.positive()),
  /**
   * A Finish ends the search when its Evaluation score is at least this (0–100) and its path holds
   * evidence; a Finish below it is scored down (value 0) and closed, and the search goes on.
   */
  finishMinScore: z.number().check(z.gte(0), z.lte(100)),
});

/** Resolved settings. */
export type AskSettings = z.infer<typeof AskSettingsSchema>;

/** Settings as callers give them: any subset. */
export type AskSettingsInput = Partial<Omit<AskSettings, 'plateau'>> & { plateau?: Partial<AskSettings['plateau']> };

/** The defaults: the paper's search parameters plus conservative budgets. */
export const DEFAULT_ASK_SETTINGS: Readonly<AskSettings> = Object.freeze({
  iterations: 15,
  maxChildren: 3,
  uctC: 1.41,
  maxDepth: 6,
  explorationTemperature: 0.7,
  answerTemperature: 0,
  answerReserve: 0.15,
  // window 0: never stop on a plateau, as in the paper (Finish or the iteration limit end the search).
  plateau: { window: 0, epsilon: 1 },
  rubric: 'deeprepoqa',
  maxEvidencePerAction: 6,
  maxAnswerEvidence: 12,
  excerptLines: 30,
  ragTopK: 8,
  maxReplyTokens: 1200,
  // The start of the rubric's "good" band (75-89): the evidence answers the question.
  finishMinScore: 75,
});

/**
 * Merges `input` over the defaults and validates the result. Throws
 * `ReponavError('BAD_INPUT')` naming every bad field.
 */
export function resolveAskSettings(input: AskSettingsInput = {}): AskSettings {
  const merged = {
    ...DEFAULT_ASK_SETTINGS,
    ...stripUndefined(input),
    plateau: { ...DEFAULT_ASK_SETTINGS.plateau, ...stripUndefined(input.plateau ?? {}) },
  };
  const parsed = AskSettingsSchema.safeParse(merged);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(settings)'}: ${i.message}`).join('; ');
    throw new ReponavError('BAD_INPUT', `Invalid ask settings: ${problems}`);
  }
  return parsed.data;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
