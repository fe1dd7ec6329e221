/**
 * The reponav MCP server: every registry tool registered with the official
 * SDK, each call going through callTool (so the server answers exactly what
 * the CLI and the agents get), indexing progress forwarded as MCP progress
 * notifications, and every failure returned as an `isError` tool result — a
 * bad call never takes the server down.
 */
import { McpServer, type CallToolResult, type ServerContext, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { toJSONSchema, type $ZodType } from '../zod-mini.js';
import { silentLogger } from '../logger.js';
import { callTool, type RepositorySet, type ToolRegistry } from '../tools/index.js';
import type { AnyToolDefinition, ToolCallResult, ToolContext, ToolProgress } from '../tools/index.js';

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
  const lookups = ['find_class', 'find_function', 'find_references', 'find_code_snippet', 'regex_search'].filter(has);
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
  return createRoutedMcpServer(registry, context, {
    instructions: serverInstructions(context, registry),
    // `repo` picks one of several repositories; with one it is noise in every tool's listing (still accepted).
    hiddenInput: context.repositories.size === 1 ? ['repo'] : [],
    route: (_tool, args, run) => run(context.repositories, args),
  });
}

/** What a routed tool call answers: a tool result, plus metadata sent in the MCP result's `_meta`. */
export type RoutedResult = ToolCallResult & { meta?: Record<string, unknown> };

/**
 * How a server without a fixed repository set (the team server) answers: it
 * picks the repositories per call (`run` then goes through callTool) or
 * answers itself, and may list extra arguments on every tool.
 */
export interface CallRouter {
  instructions: string;
  /** JSON Schema properties added to every tool's listed input (validated by `route`). */
  extraInput?: Record<string, Record<string, unknown>>;
  /** Input properties left out of every tool's listing (still accepted when given). */
  hiddenInput?: readonly string[];
  route(tool: AnyToolDefinition, args: unknown, run: (repositories: RepositorySet, args: unknown) => Promise<ToolCallResult>): Promise<RoutedResult>;
}

/** createMcpServer with the repositories chosen per call by `router` (`base.repositories` is never read). */
export function createRoutedMcpServer(registry: ToolRegistry, base: Omit<ToolContext, 'repositories'>, router: CallRouter): McpServer {
  const logger = base.logger ?? silentLogger;
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { instructions: router.instructions, capabilities: { tools: {} } });
  for (const tool of registry.list()) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: listedOnly(tool.inputSchema, 'input', router.extraInput, router.hiddenInput),
        // Off by default: structuredContent-first clients would pass the JSON to the model instead of the text.
        outputSchema: tool.outputSchema && base.structuredOutput === true ? listedOnly(tool.outputSchema, 'output') : undefined,
        annotations: annotationsOf(tool),
      },
      async (args: unknown, ctx: ServerContext): Promise<CallToolResult> => {
        try {
          const onProgress = progressSender(ctx);
          const run = (repositories: RepositorySet, callArgs: unknown) =>
            callTool(registry, tool.name, callArgs, { ...base, repositories, onProgress, signal: ctx.mcpReq.signal });
          const result = await router.route(tool, args, run);
          const content = [{ type: 'text' as const, text: result.text }];
          const meta = result.meta ? { _meta: result.meta } : {};
          if (result.isError) return { content, isError: true, ...meta };
          // With --structured the data is callTool's envelope: `text` first, the whole JSON within the budget.
          const structured = tool.outputSchema && base.structuredOutput === true;
          return structured ? { content, structuredContent: result.data as Record<string, unknown>, ...meta } : { content, ...meta };
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

/**
 * MCP tool annotations, without words a client does not need: the title is
 * already the tool's `title`, and `destructiveHint` only means something when
 * `readOnlyHint` is false (reindex: it rewrites the index, never the files).
 */
function annotationsOf(tool: AnyToolDefinition) {
  return tool.writesIndex === true
    ? { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    : { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
}

/**
 * A zod schema as the SDK lists it, with validation left to callTool: the SDK
 * would otherwise validate first and answer with its own wording, and the CLI,
 * the agents and MCP clients must get the same one-sentence messages. The
 * listed JSON Schema drops `$schema` (every tool would repeat it) and, in
 * output schemas, `additionalProperties: false` (a client reading results
 * gains nothing from it): tools/list is paid for in every agent's context.
 * The JSON Schema comes from zod's core `toJSONSchema` (what the chainable
 * API's `~standard.jsonSchema` calls), here through src/zod-mini.ts, the
 * module the tools' schemas come from.
 */
function listedOnly(
  schema: $ZodType,
  io: 'input' | 'output',
  extra?: Record<string, Record<string, unknown>>,
  hidden: readonly string[] = [],
): StandardSchemaWithJSON {
  const convert =
    (direction: 'input' | 'output') =>
    (options: Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['input']>[0]) => {
      const generated = toJSONSchema(schema, { ...(options?.libraryOptions ?? {}), target: options?.target, io: direction });
      const compact = compactSchema(generated as Record<string, unknown>, io === 'output');
      const listed = io === 'output' ? envelopeSchema(compact) : compact;
      if (extra) listed.properties = { ...(listed.properties as Record<string, unknown> | undefined), ...extra };
      if (hidden.length > 0 && listed.properties) {
        listed.properties = Object.fromEntries(Object.entries(listed.properties as Record<string, unknown>).filter(([key]) => !hidden.includes(key)));
        if (Array.isArray(listed.required)) listed.required = (listed.required as string[]).filter((key) => !hidden.includes(key));
      }
      return listed;
    };
  return {
    '~standard': {
      version: 1,
      vendor: 'reponav',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: convert('input'), output: convert('output') },
    },
  } as StandardSchemaWithJSON;
}

/**
 * The listed output schema of the structured envelope (tools/structured-envelope.ts):
 * `text` (the rendered answer) first and required, `dataCut`, then the tool's
 * fields, every one optional and none nullable (the envelope leaves nulls out).
 */
function envelopeSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const fields = withoutNullTypes(schema);
  return {
    ...fields,
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The answer as rendered for the model, within budget_tokens.' },
      dataCut: { type: 'boolean', description: 'Present when machine data below was left out to stay within budget_tokens.' },
      ...(fields.properties as Record<string, unknown> | undefined),
    },
    required: ['text'],
  };
}

/**
 * A JSON Schema whose nullable types (`anyOf` with `{ type: 'null' }`, or a
 * type list holding 'null') are the non-null type, and whose fields that were
 * nullable are no longer required: the portable form of "may be absent".
 */
function withoutNullTypes(node: Record<string, unknown>): Record<string, unknown> {
  const isNull = (v: unknown) => !!v && typeof v === 'object' && (v as Record<string, unknown>).type === 'null';
  let out: Record<string, unknown> = { ...node };
  const variants = out.anyOf;
  if (Array.isArray(variants) && variants.some(isNull)) {
    const rest = variants.filter((v) => !isNull(v));
    const { anyOf: _dropped, ...others } = out;
    out = rest.length === 1 ? { ...others, ...(rest[0] as Record<string, unknown>) } : { ...others, anyOf: rest };
  }
  if (Array.isArray(out.type) && out.type.includes('null')) {
    const types = out.type.filter((t) => t !== 'null');
    out.type = types.length === 1 ? types[0] : types;
  }
  const nullable = new Set<string>();
  if (out.properties && typeof out.properties === 'object') {
    const properties: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(out.properties as Record<string, Record<string, unknown>>)) {
      const canBeNull = (Array.isArray(value.anyOf) && value.anyOf.some(isNull)) || (Array.isArray(value.type) && value.type.includes('null'));
      if (canBeNull) nullable.add(key);
      properties[key] = withoutNullTypes(value);
    }
    out.properties = properties;
    if (Array.isArray(out.required)) out.required = out.required.filter((key) => !nullable.has(key as string));
  }
  if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) out.items = withoutNullTypes(out.items as Record<string, unknown>);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(out[key])) out[key] = (out[key] as Record<string, unknown>[]).map(withoutNullTypes);
  }
  return out;
}

/** A JSON Schema without `$schema`, and (when `dropClosed`) without `additionalProperties: false`, at any depth. */
function compactSchema(node: Record<string, unknown>, dropClosed: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || (dropClosed && key === 'additionalProperties' && value === false)) continue;
    if (Array.isArray(value)) out[key] = value.map((v) => (v && typeof v === 'object' ? compactSchema(v as Record<string, unknown>, dropClosed) : v));
    else if (value && typeof value === 'object') out[key] = compactSchema(value as Record<string, unknown>, dropClosed);
    else out[key] = value;
  }
  return out;
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
