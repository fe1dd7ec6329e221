/**
 * MCP over Streamable HTTP on Node's http module: one endpoint (`/mcp`),
 * every request passed through the guard (Host, Origin, bearer token) before
 * the SDK sees it, then served by the SDK's `createMcpHandler` — a fresh
 * McpServer per request, for 2026-07-28 clients and, statelessly, for
 * 2025-era ones (`initialize` answered without an `Mcp-Session-Id`).
 *
 * There are no sessions to hold: a client that goes away without a DELETE
 * leaves nothing behind, so no number of connect/close cycles can exhaust the
 * server (the 1.x design kept one transport per session and refused new
 * clients after 64). A legacy GET stream or DELETE is answered 405, which
 * 2025 clients treat as "not offered".
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
import { ReponavError } from '../errors.js';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { checkListenConfig, checkRequest, type GuardConfig } from './http-guard.js';

/** The path of the MCP endpoint. */
export const MCP_PATH = '/mcp';

/** Largest request body accepted (the SDK adapter's default is 4 MiB; queries are capped far below). */
export const MAX_HTTP_BODY_BYTES = 10 * 1024 * 1024;

export interface HttpServerOptions extends GuardConfig {
  /** 0 picks a free port. */
  port: number;
  /** Creates the MCP server that answers one request (cheap: the repositories and registry are shared). */
  createSession: () => McpServer;
  logger?: Logger;
}

/** A listening server. */
export interface RunningHttpServer {
  /** `http://127.0.0.1:PORT/mcp` */
  url: string;
  host: string;
  port: number;
  /** Requests being answered now. */
  inFlight(): number;
  /** Aborts requests in flight and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts listening. Throws BAD_INPUT (before binding) when the guard config is
 * unsafe, and when the port cannot be bound.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  checkListenConfig(options);
  const logger = options.logger ?? silentLogger;
  const mcp = createMcpHandler(() => options.createSession(), {
    onerror: (error: Error) => logger.debug(`MCP HTTP: ${error.message}`),
  });
  const serve = toNodeHandler(mcp, {
    maxRequestBodySize: MAX_HTTP_BODY_BYTES,
    // A client that goes away mid-request is routine (timeouts, cancelled calls): one debug line, not an error.
    onerror: (error) => (isAbort(error) ? logger.debug(`MCP HTTP request aborted: ${error.message}`) : logger.error(`MCP HTTP request failed: ${error.message}`)),
  });
  let inFlight = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const origin = header(req, 'origin');
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const oauth = isOAuthPath(path);
    // A CORS preflight carries no Authorization header; it is checked for Host and Origin only. So is an OAuth
    // discovery or registration request: answering it 401 reads to a client as "OAuth offered, registration refused".
    const guard: GuardConfig = req.method === 'OPTIONS' || oauth ? { ...options, token: undefined } : options;
    const refusal = checkRequest({ host: header(req, 'host'), origin, authorization: header(req, 'authorization') }, guard);
    if (refusal) return sendError(res, refusal.status, refusal.message, refusal.headers);
    if (origin !== undefined) corsHeaders(res, origin);
    if (oauth) return sendError(res, 404, NO_OAUTH_MESSAGE);
    if (path !== MCP_PATH) return sendError(res, 404, `Not found; the MCP endpoint is ${MCP_PATH}.`);
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    inFlight++;
    try {
      await serve(req, res);
    } finally {
      inFlight--;
    }
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

  const address = http.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${MCP_PATH}`,
    host: address.address,
    port: address.port,
    inFlight: () => inFlight,
    async close() {
      await mcp.close().catch(() => undefined);
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

/** The answer to OAuth discovery and registration: not offered, so clients use the configured header. */
export const NO_OAUTH_MESSAGE = 'Not found: this server offers no OAuth; send the configured Authorization: Bearer <token> header.';

/**
 * OAuth's well-known metadata (RFC 9728 protected resource, RFC 8414
 * authorization server, OpenID configuration, with or without a path suffix)
 * and the endpoints a client tries when it finds none (`/register`, `/authorize`, `/token`).
 */
export function isOAuthPath(path: string): boolean {
  return /^\/\.well-known\/(oauth-protected-resource|oauth-authorization-server|openid-configuration)(\/|$)/.test(path) || ['/register', '/authorize', '/token'].includes(path);
}

/** An error that only says the client went away. */
function isAbort(error: Error & { code?: string }): boolean {
  return error.code === 'ECONNRESET' || error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.name === 'AbortError' || /\baborted\b/i.test(error.message);
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
  res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, Mcp-Protocol-Version');
}
