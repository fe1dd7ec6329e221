/**
 * Public surface of the MCP server layer.
 */
export { createMcpServer, createRoutedMcpServer, serverInstructions, type CallRouter, type RoutedResult, SERVER_NAME, SERVER_VERSION } from './mcp-server.js';
export {
  createMcpService,
  DEFAULT_INDEX_WAIT_MS,
  DEFAULT_TOOLS_WORD,
  OPT_IN_TOOLS,
  offeredTools,
  openMcpService,
  serveStdio,
  type McpService,
  type McpServiceOptions,
  type StdioConnection,
} from './mcp-service.js';
export { MCP_PATH, startHttpServer, type HttpServerOptions, type RunningHttpServer } from './http-server.js';
export {
  bearerMatches,
  checkListenConfig,
  checkRequest,
  isLoopbackHost,
  MIN_TOKEN_LENGTH,
  originAllowed,
  type GuardConfig,
  type GuardRefusal,
} from './http-guard.js';
export { hostnameOf } from './http-guard.js';
export { answerStartupFailure, STARTUP_FAILURE_CODE } from './startup-failure.js';
