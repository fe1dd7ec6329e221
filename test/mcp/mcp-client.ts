/**
 * Test support: real SDK clients connected to a reponav MCP service, in
 * memory (same process) or over HTTP.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpService } from '../../src/server/mcp-service.js';

/** A connected client and how to disconnect it. */
export interface ConnectedClient {
  client: Client;
  close(): Promise<void>;
}

/** Connects a client to a fresh MCP server of `service` over a linked in-memory transport pair. */
export async function connectInMemory(service: McpService): Promise<ConnectedClient> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = service.createSession();
  await server.connect(serverSide);
  const client = new Client({ name: 'reponav-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** Connects a client over Streamable HTTP (optionally with extra headers, e.g. Authorization). */
export async function connectHttp(url: string, headers: Record<string, string> = {}): Promise<ConnectedClient> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: 'reponav-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** The text of a tool result (all text parts joined). */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
}

/** Calls a tool and returns `{ text, isError }`. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = await client.callTool({ name, arguments: args });
  return { text: textOf(result), isError: result.isError === true };
}
