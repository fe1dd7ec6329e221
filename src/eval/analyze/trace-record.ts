/**
 * The part of an agent trajectory (`traceDir/<instance>.json`, written by the
 * localization agent) that the analyses read. Eval sits below the agents
 * layer, so the shape is re-declared here, loosely: extra fields are
 * ignored, and a trace missing these fields is not used.
 */
import * as z from '../../zod-mini.js';

/** One step, as far as the evidence funnel needs it. */
const stepSchema = z.looseObject({
  action: z.string(),
  tool: z.optional(z.string()),
  args: z.optional(z.unknown()),
  observation: z.optional(z.string()),
  inspected: z.optional(z.array(z.string())),
});

/** A recorded trajectory (see src/agents/localize/trajectory.ts for the full shape). */
export const traceSchema = z.looseObject({
  instanceId: z.optional(z.string()),
  steps: z.array(stepSchema),
  stopReason: z.string(),
  stats: z.looseObject({
    steps: z.number(),
    totalTokens: z.number(),
    wallMs: z.number(),
    listSymbolsUsed: z.boolean(),
    toolCalls: z.record(z.string(), z.number()),
  }),
});

/** A trajectory as the analyses read it. */
export type RecordedTrace = z.infer<typeof traceSchema>;
