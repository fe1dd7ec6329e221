/**
 * `reponav/mcp`: the MCP server over the same tools as the root entry, on
 * stdio or Streamable HTTP. Loads the MCP SDK and the HTTP stack, which the
 * root entry does not.
 *
 * @example
 * ```ts
 * import { openMcpService, serveStdio } from 'reponav/mcp';
 * ```
 */
export { openMcpService, createMcpServer, serveStdio, startHttpServer } from './mcp-server/index.js';
export type { HttpServerOptions, RunningHttpServer } from './mcp-server/index.js';
