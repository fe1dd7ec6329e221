/**
 * The reponav MCP server: every registry tool registered with the official
 * SDK, each call going through callTool (so the server answers exactly what
 * the CLI and the agents get), indexing progress forwarded as MCP progress
 * notifications, and every failure returned as an `isError` tool result — a
 * bad call never takes the server down.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { silentLogger } from '../logger.js';
import { callTool, type ToolRegistry } from '../tools/tool-registry.js';
import type { ToolContext, ToolProgress } from '../tools/tool-types.js';

/** Server identity reported at initialization. */
export const SERVER_NAME = 'reponav';
export const SERVER_VERSION = '0.1.0';

/** Minimum milliseconds between two progress notifications of one call (the last one always goes out). */
const PROGRESS_INTERVAL_MS = 200;

/** The instructions an MCP client may show its model: what the tools are for and which repositories exist. */
export function serverInstructions(context: ToolContext, registry: ToolRegistry): string {
  const names = context.repositories.names();
  const repos =
    names.length === 1
      ? `This server navigates one repository, '${names[0]}' (the repo argument may be omitted).`
      : `This server navigates ${names.length} repositories: ${names.join(', ')}. Pass repo with one of these names on every call.`;
  const has = (name: string) => registry.get(name) !== undefined;
  const flow = [
    has('search') ? 'Start with search (a map of the relevant files and symbols for an issue or question)' : null,
    has('list_symbols') ? 'then list_symbols on a file it names' : null,
    has('view_code') ? 'then view_code to read exact lines or a symbol' : null,
  ].filter(Boolean);
  const lookups = ['find_class', 'find_function', 'find_code_snippet'].filter(has);
  return [
    repos,
    flow.length > 0 ? `${flow.join(', ')}.` : '',
    lookups.length > 0 ? `When you know a name or an exact piece of code, ${lookups.join(' / ')} answer directly.` : '',
    'Answers always match the files on disk (the index is refreshed before each call) and are cut to a token budget with a [TRUNCATED] note.',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * Creates one MCP server over `registry` and `context`. A server object serves
 * one connection (one stdio pipe or one HTTP session); create one per session.
 * The repositories in `context` are shared and not closed by the server.
 */
export function createMcpServer(registry: ToolRegistry, context: ToolContext): McpServer {
  const logger = context.logger ?? silentLogger;
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { instructions: serverInstructions(context, registry), capabilities: { tools: {} } },
  );
  for (const tool of registry.list()) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema as never,
        annotations: { title: tool.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      (async (args: unknown, extra: ToolExtra): Promise<CallToolResult> => {
        try {
          const onProgress = progressSender(extra);
          const result = await callTool(registry, tool.name, args, { ...context, onProgress, signal: extra.signal });
          return result.isError ? { content: [{ type: 'text', text: result.text }], isError: true } : { content: [{ type: 'text', text: result.text }] };
        } catch (error) {
          // callTool never throws; this guards the guard.
          logger.error(`tool ${tool.name} crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          return { content: [{ type: 'text', text: `Internal error in ${tool.name}; the server keeps running.` }], isError: true };
        }
      }) as never,
    );
  }
  return server;
}

/** The part of the SDK's request context a tool call uses. */
interface ToolExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (notification: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  }) => Promise<void>;
}

/**
 * A progress callback that sends MCP progress notifications when the request
 * carried a progressToken: strictly increasing `progress` (as the spec
 * requires, so a follow-up refresh that restarts at 0 stays quiet until it
 * passes the last value), at most one per PROGRESS_INTERVAL_MS except the last.
 */
function progressSender(extra: ToolExtra): ((progress: ToolProgress) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let lastValue = -1;
  let lastSentAt = 0;
  return (progress) => {
    const now = Date.now();
    const final = progress.done >= progress.total;
    if (progress.done <= lastValue) return;
    if (!final && now - lastSentAt < PROGRESS_INTERVAL_MS) return;
    lastValue = progress.done;
    lastSentAt = now;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: progress.done, total: progress.total, message: progress.message },
      })
      .catch(() => undefined);
  };
}
