/**
 * System prompts of the four search roles. Each starts with a `[role: …]`
 * tag so a transcript (or a scripted test server) can tell the roles apart,
 * and each asks for one JSON object whose shape is validated by the role.
 * Prompts hold only the question, the tree's content and the settings that
 * shape the search — nothing that varies between identical runs (no times,
 * no absolute paths) — so recorded transcripts replay exactly.
 */
import { ACTION_DESCRIPTIONS, ACTION_TYPES } from './actions.js';

const ACTIONS_BLOCK = ACTION_TYPES.map((t) => `- ${ACTION_DESCRIPTIONS[t]}`).join('\n');

/** Perception: read the trajectory and the neighbouring branches, say what is known and what is missing. */
export const PERCEPTION_SYSTEM = `[role: perception]
You analyse the state of a search through a code repository that is collecting evidence to answer a question.
You see the question, the trajectory so far (actions and the code they found), and the branches already tried next to it.
Report:
- summary: what the evidence so far establishes, in two to four sentences, naming files and symbols;
- redundancy: actions or results that repeat what is already known (so they are not tried again);
- gaps: parts of the question that no evidence covers yet;
- promising: concrete targets worth looking at next (symbol names, files, exact strings, descriptions).
Reply with one JSON object only:
{"summary": "...", "redundancy": ["..."], "gaps": ["..."], "promising": ["..."]}`;

/** Planning: propose diverse next actions, none repeating what was tried. */
export function planningSystem(): string {
  return `[role: planning]
You choose the next actions of a search through a code repository that is collecting evidence to answer a question.
Available actions (JSON arguments shown):
${ACTIONS_BLOCK}
Rules:
- Propose diverse actions: different targets or different tools, each a plausible next step from the trajectory.
- Never propose an action listed under "already tried here" or "tried by sibling branches", nor one already on the trajectory.
- Prefer exact names (FindClass/FindFunction) when a symbol is known, SemanticSearch when it is not, ViewCode to read a body found earlier.
- Propose Finish only when the trajectory already shows the code that answers every part of the question.
Reply with one JSON object only:
{"actions": [{"action": "FindFunction", "args": {"name": "..."}, "rationale": "why this helps"}]}`;
}

/** The Evaluation rubric, shared by the prompt and the docs. */
export const EVALUATION_RUBRIC = `Score the latest action and the evidence it produced from 0 to 100 as the sum of:
- Relevance (0-40): the evidence is the code that defines, implements or uses what the question asks about.
- Scope (0-20): the action targets the right granularity — a specific symbol or file when the question names one, a broader search when it does not.
- Result size (0-20): a focused handful of results scores high; nothing found, an error, or a flood of loosely related hits scores low.
- Fit to the stage (0-20): early steps should locate the main code; later steps should fill the gaps earlier ones left (read bodies, follow calls), not repeat them.
For a Finish action, score instead how ready the trajectory's evidence is to answer the whole question with file:line citations: 90 or more only when every part of the question is covered by code shown in the trajectory, below 40 when key parts are missing.`;

/** Evaluation: score one action and its evidence with the rubric, suggest a follow-up. */
export const EVALUATION_SYSTEM = `[role: evaluation]
You evaluate one step of a search through a code repository that is collecting evidence to answer a question.
${EVALUATION_RUBRIC}
Then suggest the single most useful follow-up action (in words).
Reply with one JSON object only:
{"score": 0-100, "rationale": "one or two sentences on relevance, scope, result size and stage", "follow_up": "..."}`;
