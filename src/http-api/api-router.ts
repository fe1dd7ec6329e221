/**
 * Dispatch of `/api/*`: method and path to handler, JSON in and out. Every
 * failure is `{ error }` with a status — never an HTML page or a hang — so
 * the page can always show a plain message.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import { getReport, getTrace, postReport, postTrace, type DocumentApiContext } from './document-api.js';
import { ApiError, sendApiError, sendJson, toApiError } from './http-io.js';
import { getChanges, getCode, getFiles, getInfo, getMap, getOutline, getSearch, type RepositoryApiContext } from './repository-api.js';
import type { AnsweredFrom } from './api-types.js';

/** Everything the handlers share. */
export interface ApiContext extends RepositoryApiContext, DocumentApiContext {
  logger: Logger;
  /**
   * The commit that answers (the team server answers from one shard per
   * call): added to every successful body as `answeredFrom` and sent as the
   * `X-Reponav-Commit` header.
   */
  answeredFrom?: AnsweredFrom;
}

type Handler = (ctx: ApiContext, params: URLSearchParams, req: IncomingMessage) => unknown;

/** Routes by path, then method. */
const ROUTES: Readonly<Record<string, Partial<Record<'GET' | 'POST', Handler>>>> = {
  '/api/info': { GET: (ctx) => getInfo(ctx) },
  '/api/files': { GET: (ctx, params) => getFiles(ctx, params) },
  '/api/search': { GET: (ctx, params) => getSearch(ctx, params) },
  '/api/code': { GET: (ctx, params) => getCode(ctx, params) },
  '/api/symbols': { GET: (ctx, params) => getOutline(ctx, params) },
  '/api/map': { GET: (ctx, params) => getMap(ctx, params) },
  '/api/changes': { GET: (ctx, params) => getChanges(ctx, params) },
  '/api/trace': { GET: (ctx, params) => getTrace(ctx, params), POST: (ctx, _params, req) => postTrace(ctx, req) },
  '/api/report': { GET: (ctx, params) => getReport(ctx, params), POST: (ctx, _params, req) => postReport(ctx, req) },
};

/** The API paths, for documentation and tests. */
export const API_PATHS: readonly string[] = Object.keys(ROUTES);

/** Answers one `/api/*` request. */
export async function handleApiRequest(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  try {
    const route = ROUTES[url.pathname.replace(/\/+$/, '')];
    if (!route) throw new ApiError(404, `No API endpoint ${url.pathname.slice(0, 100)}; the endpoints are ${API_PATHS.join(', ')}.`, 'NOT_FOUND');
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const handler = method === 'GET' || method === 'POST' ? route[method] : undefined;
    if (!handler) {
      const allowed = Object.keys(route).join(', ');
      throw new ApiError(405, `${req.method} is not allowed on ${url.pathname}; use ${allowed}.`, 'METHOD_NOT_ALLOWED', {}, { Allow: allowed });
    }
    if (method === 'POST' && !/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      // A cross-site form cannot send this content type without a CORS preflight, which we never grant.
      throw new ApiError(415, 'Send uploads with Content-Type: application/json.', 'UNSUPPORTED_MEDIA_TYPE');
    }
    const body = await handler(ctx, url.searchParams, req);
    if (ctx.answeredFrom && body && typeof body === 'object') {
      sendJson(res, 200, { ...body, answeredFrom: ctx.answeredFrom }, { 'X-Reponav-Commit': ctx.answeredFrom.commit });
    } else sendJson(res, 200, body);
  } catch (caught) {
    const error = toApiError(caught);
    if (error.status >= 500 && error.status !== 503) {
      ctx.logger.error(`web api ${req.method} ${url.pathname} failed: ${caught instanceof Error ? (caught.stack ?? caught.message) : String(caught)}`);
    }
    if (!res.headersSent) sendApiError(res, error);
    else res.destroy();
  }
}
