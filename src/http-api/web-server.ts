/**
 * The local web view's HTTP server (node:http): `/api/*` answers JSON from
 * the tools and local documents; everything else is the built front end.
 * It binds to loopback unless told otherwise, and checks Host and Origin on
 * every request (see request-guard.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReponavError } from '../errors.js';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { isLoopbackHost } from '../mcp-server/index.js';
import type { RepositorySet } from '../tools/index.js';
import { handleApiRequest, type ApiContext } from './api-router.js';
import { SECURITY_HEADERS } from './http-io.js';
import { checkWebRequest } from './request-guard.js';
import { defaultAssetsDir, serveStatic } from './static-assets.js';
import { createWebToolRegistry } from './web-tools.js';

/** Default port of `reponav ui`. */
export const DEFAULT_WEB_PORT = 7733;

/** How long an API call waits for indexing before answering 503 "indexing" (the page retries). */
export const DEFAULT_WEB_INDEX_WAIT_MS = 8000;

export interface WebServerOptions {
  /** The repositories to browse; the caller opens and closes them. */
  repositories: RepositorySet;
  /** 0 picks a free port. Default {@link DEFAULT_WEB_PORT}. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Must be true to bind a non-loopback address (the CLI sets it only for an explicit --host). */
  allowRemote?: boolean;
  /** The built front end; default `<package>/dist/web-ui`. */
  assetsDir?: string;
  /** Where relative trace and report paths start; default the current directory. */
  baseDir?: string;
  /** Default {@link DEFAULT_WEB_INDEX_WAIT_MS}. */
  indexWaitMs?: number;
  /** Shown by /api/info. */
  version?: string;
  logger?: Logger;
}

/** A listening web view. */
export interface RunningWebServer {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  host: string;
  port: number;
  /** Stops listening and ends open connections (the repositories stay open). */
  close(): Promise<void>;
}

/**
 * Starts the web view. Throws BAD_INPUT for a non-loopback host without
 * `allowRemote`, and when the port cannot be bound.
 */
export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && !options.allowRemote) {
    throw new ReponavError('BAD_INPUT', `Refusing to serve the repository on ${host}: the web view has no login. Bind to 127.0.0.1, or pass --host explicitly to accept the risk.`);
  }
  const logger = options.logger ?? silentLogger;
  const assetsDir = options.assetsDir ?? defaultAssetsDir();
  const ctx: ApiContext = {
    registry: createWebToolRegistry(),
    // The page shows answers from the whole index only (repository-api.ts): no partial first answer here.
    tools: { repositories: options.repositories, logger, indexWaitMs: options.indexWaitMs ?? DEFAULT_WEB_INDEX_WAIT_MS, focusedFirstIndex: false },
    version: options.version ?? '0.0.0',
    baseDir: options.baseDir ?? process.cwd(),
    logger,
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refusal = checkWebRequest({ host: req.headers.host, origin: single(req.headers.origin) }, host);
    if (refusal) {
      res.writeHead(refusal.status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: refusal.message, code: 'FORBIDDEN' }));
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return handleApiRequest(ctx, req, res, url);
    return serveStatic(res, assetsDir, url.pathname, req.method ?? 'GET');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error(`web request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: 'Internal error.' }));
      else res.destroy();
    });
  });
  await listen(server, options.port ?? DEFAULT_WEB_PORT, host);
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/`,
    host: address.address,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      const why = error.code === 'EADDRINUSE' ? `port ${port} is in use; pass --port 0 for any free port` : error.message;
      reject(new ReponavError('BAD_INPUT', `Cannot listen on ${host}:${port}: ${why}.`));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}
