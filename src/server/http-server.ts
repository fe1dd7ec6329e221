/**
 * MCP over Streamable HTTP on Node's http module: one endpoint (`/mcp`), one
 * SDK transport and one McpServer per session, every request passed through
 * the guard (Host, Origin, bearer token) before the SDK sees it.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ReponavError } from '../errors.js';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { checkListenConfig, checkRequest, type GuardConfig } from './http-guard.js';

/** The path of the MCP endpoint. */
export const MCP_PATH = '/mcp';

export interface HttpServerOptions extends GuardConfig {
  /** 0 picks a free port. */
  port: number;
  /** Creates the MCP server of one new session. */
  createSession: () => McpServer;
  logger?: Logger;
  /** Open sessions at most; an initialize beyond it gets 503. Default 64. */
  maxSessions?: number;
  /** Sessions idle this long are closed. Default 30 minutes. */
  sessionIdleMs?: number;
}

/** A listening server. */
export interface RunningHttpServer {
  /** `http://127.0.0.1:PORT/mcp` */
  url: string;
  host: string;
  port: number;
  /** Open sessions now. */
  sessionCount(): number;
  /** Closes every session and stops listening. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastUsed: number;
}

/**
 * Starts listening. Throws BAD_INPUT (before binding) when the guard config is
 * unsafe, and when the port cannot be bound.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  checkListenConfig(options);
  const logger = options.logger ?? silentLogger;
  const maxSessions = options.maxSessions ?? 64;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const sessions = new Map<string, Session>();

  const closeSession = async (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.server.close().catch(() => undefined);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const origin = header(req, 'origin');
    // A CORS preflight carries no Authorization header; it is checked for Host and Origin only.
    const guard: GuardConfig = req.method === 'OPTIONS' ? { ...options, token: undefined } : options;
    const refusal = checkRequest({ host: header(req, 'host'), origin, authorization: header(req, 'authorization') }, guard);
    if (refusal) return sendError(res, refusal.status, refusal.message, refusal.headers);
    if (origin !== undefined) corsHeaders(res, origin);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_PATH) return sendError(res, 404, `Not found; the MCP endpoint is ${MCP_PATH}.`);
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const sessionId = header(req, 'mcp-session-id');
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session) return sendError(res, 404, 'Session not found; initialize a new session.', undefined, -32001);
      session.lastUsed = Date.now();
      await session.transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') return sendError(res, 400, 'Missing mcp-session-id header; initialize a session with a POST first.');
    if (sessions.size >= maxSessions) return sendError(res, 503, `Too many open sessions (${maxSessions}); close one (HTTP DELETE) and retry.`);
    const server = options.createSession();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, lastUsed: Date.now() });
      },
      onsessionclosed: (id) => {
        void closeSession(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // Not an initialize request: the SDK refused it, and this transport has no session to keep.
    if (!transport.sessionId) await server.close().catch(() => undefined);
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error(`HTTP request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) sendError(res, 500, 'Internal server error.');
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'it is in use' : error.code === 'EACCES' ? 'permission denied' : error.message;
      reject(new ReponavError('BAD_INPUT', `Cannot listen on ${options.host}:${options.port}: ${why}.`));
    };
    http.once('error', onError);
    http.listen(options.port, options.host, () => {
      http.off('error', onError);
      resolve();
    });
  });
  http.on('error', (error) => logger.error(`HTTP server error: ${error.message}`));

  const sweeper = setInterval(() => {
    const cutoff = Date.now() - idleMs;
    for (const [id, session] of sessions) if (session.lastUsed < cutoff) void closeSession(id);
  }, Math.min(idleMs, 60_000));
  sweeper.unref();

  const address = http.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${MCP_PATH}`,
    host: address.address,
    port: address.port,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweeper);
      await Promise.all([...sessions.keys()].map(closeSession));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A JSON-RPC error body without id, as the spec suggests for transport-level refusals. */
function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** CORS for an origin the guard already allowed (browser-based clients). */
function corsHeaders(res: ServerResponse, origin: string): void {
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID');
  res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id');
}
