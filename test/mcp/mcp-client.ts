/**
 * Test support: real SDK clients connected to a reponav MCP service, in
 * memory (same process), over HTTP or over stdio, in either protocol era:
 * `modern` is the 2.x SDK client pinned to 2026-07-28 (a pin never falls
 * back, so the server must offer that revision); `legacy` is the 1.x SDK
 * client, which speaks the 2025 `initialize` handshake as deployed clients do.
 */
import { Client as ModernClient, InMemoryTransport as ModernInMemory, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpService } from '../../src/mcp-server/mcp-service.js';
import { OPT_IN_TOOLS } from '../../src/mcp-server/mcp-service.js';
import { TOOL_NAMES } from '../../src/tools/tool-types.js';
import { closedAtEnd } from '../helpers/child-processes.js';

export { getDefaultEnvironment };

/** The tools a server offers by default: all but the opt-in ones (semantic_search without an embedder, the git tools). */
export const DEFAULT_MCP_TOOLS: readonly string[] = TOOL_NAMES.filter((name) => !OPT_IN_TOOLS.includes(name));

/** The newest protocol revision; modern clients pin it. */
export const MODERN_PROTOCOL = '2026-07-28';

export type Era = 'modern' | 'legacy';

/** What tests use of either SDK's client. */
export interface AnyClient {
  listTools(): Promise<{ tools: any[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, ...rest: any[]): Promise<any>;
  close(): Promise<void>;
}

/** A connected client and how to disconnect it. */
export interface ConnectedClient {
  client: AnyClient;
  /** The protocol revision the connection negotiated. */
  protocolVersion: string | undefined;
  close(): Promise<void>;
}

function modernClient(name: string): ModernClient {
  return new ModernClient({ name, version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } });
}

function legacyClient(name: string): LegacyClient {
  return new LegacyClient({ name, version: '1.0.0' });
}

/** Connects a modern client to a fresh MCP server of `service` over a linked in-memory transport pair (2025 handshake: in-memory wiring is per connection). */
export async function connectInMemory(service: McpService): Promise<ConnectedClient & { client: ModernClient }> {
  const [clientSide, serverSide] = ModernInMemory.createLinkedPair();
  const server = service.createSession();
  await server.connect(serverSide);
  const client = new ModernClient({ name: 'reponav-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    protocolVersion: client.getNegotiatedProtocolVersion?.(),
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/**
 * Connects over Streamable HTTP (optionally with extra headers, e.g.
 * Authorization). A legacy client with `terminate: false` closes like most
 * clients do: without the DELETE that would end a session.
 */
export async function connectHttp(url: string, headers: Record<string, string> = {}, options: { era?: Era; terminate?: boolean } = {}): Promise<ConnectedClient> {
  if ((options.era ?? 'modern') === 'modern') {
    const client = modernClient('reponav-test');
    await client.connect(new ModernHttp(new URL(url), { requestInit: { headers } }));
    return { client: client as unknown as AnyClient, protocolVersion: client.getNegotiatedProtocolVersion?.(), close: () => client.close() };
  }
  const transport = new LegacyHttp(new URL(url), { requestInit: { headers } });
  const client = legacyClient('reponav-test');
  await client.connect(transport);
  return {
    client: client as unknown as AnyClient,
    protocolVersion: transport.protocolVersion,
    async close() {
      if (options.terminate !== false) await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** A 2025-era client over HTTP (see connectHttp). */
export function connectHttpLegacy(url: string, headers: Record<string, string> = {}, options: { terminate?: boolean } = {}): Promise<ConnectedClient> {
  return connectHttp(url, headers, { ...options, era: 'legacy' });
}

/** Spawns `command args` and connects over stdio in `era`; stderr is collected into `stderr()`. */
export async function connectStdio(
  era: Era,
  params: { command: string; args: string[]; env: Record<string, string> },
): Promise<ConnectedClient & { stderr(): string; errors: Error[] }> {
  let stderr = '';
  const errors: Error[] = [];
  if (era === 'modern') {
    const transport = new ModernStdio({ ...params, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk) => (stderr += String(chunk)));
    const client = modernClient('reponav-stdio-test');
    client.onerror = (error) => errors.push(error);
    // The server process is the transport's: closed when the test file ends if the test did not (a failed
    // assertion before its close), and at once when the connection itself fails.
    const close = closedAtEnd(() => client.close());
    await client.connect(transport).catch(async (error: unknown) => {
      await close().catch(() => undefined);
      throw error;
    });
    return { client: client as unknown as AnyClient, protocolVersion: client.getNegotiatedProtocolVersion?.(), close, stderr: () => stderr, errors };
  }
  const transport = new LegacyStdio({ ...params, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const client = legacyClient('reponav-stdio-test');
  client.onerror = (error) => errors.push(error);
  const close = closedAtEnd(() => client.close());
  await client.connect(transport).catch(async (error: unknown) => {
    await close().catch(() => undefined);
    throw error;
  });
  return { client: client as unknown as AnyClient, protocolVersion: undefined, close, stderr: () => stderr, errors };
}

/** The text of a tool result (all text parts joined). */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
}

/** Calls a tool and returns `{ text, isError, structured }`. */
export async function call(client: AnyClient, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean; structured?: Record<string, unknown> }> {
  const result = await client.callTool({ name, arguments: args });
  return { text: textOf(result), isError: result.isError === true, structured: result.structuredContent };
}
