/**
 * The reponav MCP server: every registry tool registered with the official
 * SDK, each call going through callTool (so the server answers exactly what
 * the CLI and the agents get), indexing progress forwarded as MCP progress
 * notifications, and every failure returned as an `isError` tool result — a
 * bad call never takes the server down.
 */
import { McpServer, type CallToolResult, type ServerContext, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { silentLogger } from '../logger.js';
import { callTool, type ToolRegistry } from '../tools/index.js';
import type { AnyToolDefinition, ToolContext, ToolProgress } from '../tools/index.js';

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
        inputSchema: listedOnly(tool.inputSchema),
        outputSchema: tool.outputSchema ? listedOnly(tool.outputSchema) : undefined,
        annotations: annotationsOf(tool),
      },
      async (args: unknown, ctx: ServerContext): Promise<CallToolResult> => {
        try {
          const onProgress = progressSender(ctx);
          const result = await callTool(registry, tool.name, args, { ...context, onProgress, signal: ctx.mcpReq.signal });
          const content = [{ type: 'text' as const, text: result.text }];
          if (result.isError) return { content, isError: true };
          // The text stays the primary answer (what the model reads); the JSON rides along for clients that use it.
          return tool.outputSchema ? { content, structuredContent: result.data as Record<string, unknown> } : { content };
        } catch (error) {
          // callTool never throws; this guards the guard.
          logger.error(`tool ${tool.name} crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          return { content: [{ type: 'text', text: `Internal error in ${tool.name}; the server keeps running.` }], isError: true };
        }
      },
    );
  }
  return server;
}

/** MCP tool annotations: every tool reads the repository only; reindex writes the index (not the repository). */
function annotationsOf(tool: AnyToolDefinition) {
  return {
    title: tool.title,
    readOnlyHint: tool.writesIndex !== true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  };
}

/**
 * A zod schema as the SDK lists it, with validation left to callTool: the SDK
 * would otherwise validate first and answer with its own wording, and the CLI,
 * the agents and MCP clients must get the same one-sentence messages.
 */
function listedOnly(schema: z.ZodType): StandardSchemaWithJSON {
  const standard = (schema as unknown as StandardSchemaWithJSON)['~standard'];
  return {
    '~standard': {
      version: 1,
      vendor: 'reponav',
      validate: (value: unknown) => ({ value }),
      jsonSchema: standard.jsonSchema,
    },
  } as StandardSchemaWithJSON;
}

/**
 * A progress callback that sends MCP progress notifications when the request
 * carried a progressToken: strictly increasing `progress` (as the spec
 * requires, so a follow-up refresh that restarts at 0 stays quiet until it
 * passes the last value), at most one per PROGRESS_INTERVAL_MS except the last.
 */
function progressSender(ctx: ServerContext): ((progress: ToolProgress) => void) | undefined {
  const token = ctx.mcpReq._meta?.progressToken;
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
    ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: { progressToken: token, progress: progress.done, total: progress.total, message: progress.message },
      })
      .catch(() => undefined);
  };
}
