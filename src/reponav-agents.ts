/**
 * `reponav/agents`: the question-answering agent (Monte-Carlo tree search with
 * checked citations), the localization agent and the chat-model clients they
 * run on (OpenAI-compatible, Anthropic, replay). The `openai` SDK stays an
 * optional peer: it is loaded when an OpenAI-compatible model is first called.
 */
export { askQuestion, type AskTrace } from './agents/ask/index.js';
export { runLocalizationAgent, AGENT_INTERFACES, type AgentInterfaceName, type LocalizationAgentOptions } from './agents/localize/index.js';
export { createChatModel, type ChatModel, type ChatMessage, type ChatResponse } from './llm/index.js';
