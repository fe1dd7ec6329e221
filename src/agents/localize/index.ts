/**
 * The localization agent: a mini-SWE-agent style loop over a text action
 * protocol, the paper's four tool interfaces, the per-run workspace (view,
 * shell, index tools), and the LocBench agent localizer.
 */
export { AGENT_INTERFACES, resolveAgentInterface, SHELL_TOOL, type AgentInterface, type AgentInterfaceName } from './agent-interfaces.js';
export { DEFAULT_MAX_STEPS, DEFAULT_MAX_TOKENS, runLocalizationAgent, type LocalizationAgentOptions } from './agent-loop.js';
export { fencedBlocks, parseAction, parseCorrectedAnswer, type AgentAction } from './action-protocol.js';
export {
  AnswerSchema,
  emptyAnswer,
  normalizePath,
  salvageLocations,
  splitLocation,
  toRankedAnswer,
  type AnswerInput,
  type RankedAnswer,
} from './answer-format.js';
export { openAgentWorkspace, type AgentWorkspace, type AgentWorkspaceOptions, type ShellSettings } from './agent-workspace.js';
export {
  AgentSettingsSchema,
  behaviourTimings,
  createAgentLocalizer,
  parseAgentSettings,
  type AgentLocalizeInput,
  type AgentLocalizer,
  type AgentLocalizerConfig,
  type AgentPrediction,
  type AgentLocalizerDeps,
  type AgentSettings,
} from './agent-localizer.js';
export { buildSystemPrompt, buildTaskMessage, type SystemPromptInput } from './system-prompt.js';
export { HIDDEN_ARGUMENTS, renderShellSpec, renderToolSpec, withoutHiddenArguments, type ShellDescription } from './tool-specs.js';
export {
  computeStats,
  recentlyInspected,
  type AnswerSource,
  type RunStats,
  type StepAction,
  type StopReason,
  type Trajectory,
  type TrajectoryStep,
} from './trajectory.js';
