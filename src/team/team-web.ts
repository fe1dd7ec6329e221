/**
 * The web view on the team server: the single-user view's front end and JSON
 * API (src/http-api), answering for the repositories of the caller's token
 * only, one shard per call (the newest ready commit of the tracked branch, or
 * `?commit=`), each answer saying which commit answered (`answeredFrom`).
 *
 * A browser cannot put a bearer header on a navigation, so the page signs in
 * once: `POST /login` with the token (a form) sets it as an HttpOnly,
 * SameSite=Strict cookie; the API then accepts the cookie or a bearer header.
 * The cookie holds the token itself, so any server behind the load balancer
 * checks it against PostgreSQL as it checks a bearer header, and revoking the
 * token ends the session. Documents are upload-only: the team server opens
 * no file by a path its caller names.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ApiError,
  createWebToolRegistry,
  defaultAssetsDir,
  handleApiRequest,
  readBodyText,
  SECURITY_HEADERS,
  sendApiError,
  sendJson,
  serveStatic,
  type ApiContext,
  type InfoResponse,
} from '../http-api/index.js';
import { SCHEMA_VERSION } from '../index/index.js';
import type { Logger } from '../logger.js';
import { RepositorySet, type ToolRegistry } from '../tools/index.js';
import type { Principal } from './access-tokens.js';
import type { Queryable } from './pg-database.js';
import type { ShardCache } from './shard-cache.js';
import { freshness } from './shard-registry.js';
import { BAD_COMMIT_TEXT, isCommitArgument, noRepoText, pickShard, unknownRepoText } from './team-router.js';

/** The cookie that carries the token of a signed-in page. */
export const SESSION_COOKIE = 'reponav_token';
/** How long a sign-in lasts in the browser (the token itself may be revoked sooner). */
const SESSION_SECONDS = 12 * 3600;
/** The sign-in form holds one token: a larger body is refused (413) before it is read whole. */
const LOGIN_BODY_BYTES = 16 * 1024;
/** The API paths that answer about one repository (everything else under /api/ needs none). */
const REPOSITORY_PATHS = new Set(['/api/files', '/api/search', '/api/code', '/api/symbols', '/api/map', '/api/changes']);

/** What the web view of one team server shares between requests. */
export interface TeamWebOptions {
  db: Queryable;
  cache: ShardCache;
  logger: Logger;
  version: string;
  /** The built front end; default `<package>/dist/web-ui`. */
  assetsDir?: string;
  /** Tools the server does not offer; an API route that needs one answers 404 saying so. */
  excludedTools?: readonly string[];
}

/** The tool behind each repository API path that needs one the server may not offer. */
const ROUTE_TOOLS: Readonly<Record<string, string>> = { '/api/changes': 'changed_files' };

/** The web view's request handlers. */
export interface TeamWeb {
  /** `GET /login` (the form) and `POST /login` (the token → cookie). */
  login(req: IncomingMessage, res: ServerResponse, check: (token: string) => Promise<Principal | null>): Promise<void>;
  /** `POST /logout`: clears the cookie. */
  logout(req: IncomingMessage, res: ServerResponse): void;
  /** `/api/*` (except `/api/repos`) for a signed-in caller who sees `visible`. */
  api(req: IncomingMessage, res: ServerResponse, url: URL, principal: Principal, visible: string[]): Promise<void>;
  /** The front end's files. */
  page(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

/** The token a request carries in the session cookie, if any. */
export function sessionToken(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== SESSION_COOKIE) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      throw new ApiError(400, `The ${SESSION_COOKIE} cookie is not valid %-encoding; sign in again at /login.`, 'BAD_INPUT');
    }
  }
  return undefined;
}

/** Creates the handlers. */
export function createTeamWeb(options: TeamWebOptions): TeamWeb {
  const registry: ToolRegistry = createWebToolRegistry(options.excludedTools);
  const assetsDir = options.assetsDir ?? defaultAssetsDir();
  const context = (repositories: RepositorySet | null, answeredFrom?: ApiContext['answeredFrom']): ApiContext => ({
    registry,
    // Document routes never touch the repositories; they get a placeholder they cannot reach.
    tools: { repositories: repositories as RepositorySet, logger: options.logger, indexWaitMs: 0 },
    version: options.version,
    baseDir: null,
    logger: options.logger,
    ...(answeredFrom ? { answeredFrom } : {}),
  });

  return {
    async login(req, res, check) {
      if (req.method === 'GET' || req.method === 'HEAD') return sendLoginPage(res, 200, null);
      if (req.method !== 'POST') return sendLoginPage(res, 405, 'Sign in with the form.', { Allow: 'GET, POST' });
      const type = req.headers['content-type'] ?? '';
      if (!/^application\/x-www-form-urlencoded\b/i.test(type)) return sendLoginPage(res, 415, 'Send the form as application/x-www-form-urlencoded.');
      const token = (new URLSearchParams(await readBodyText(req, { maxBytes: LOGIN_BODY_BYTES, route: 'POST /login' })).get('token') ?? '').trim();
      const principal = token ? await check(token) : null;
      if (!principal) return sendLoginPage(res, 401, 'That token is not valid (or it was revoked).');
      res.writeHead(303, { ...SECURITY_HEADERS, Location: './', 'Set-Cookie': sessionCookie(req, encodeURIComponent(token), SESSION_SECONDS), 'Cache-Control': 'no-store' });
      res.end();
    },

    logout(req, res) {
      if (req.method !== 'POST') return sendJson(res, 405, { error: 'Sign out with POST /logout.' }, { Allow: 'POST' });
      res.writeHead(303, { ...SECURITY_HEADERS, Location: 'login', 'Set-Cookie': sessionCookie(req, '', 0), 'Cache-Control': 'no-store' });
      res.end();
    },

    async api(req, res, url, principal, visible) {
      const path = url.pathname.replace(/\/+$/, '');
      if (path === '/api/info' && (req.method === 'GET' || req.method === 'HEAD')) {
        const rows = await freshness(options.db, visible, SCHEMA_VERSION);
        const info: InfoResponse = {
          version: options.version,
          repositories: visible.map((name) => ({ name, root: '' })),
          team: {
            token: principal.tokenName,
            // The numbers index_status and fleet list give: lag unknown (null) while the head cannot be read, with why.
            repositories: rows.map((r) => ({
              name: r.repo,
              branch: r.branch,
              servedCommit: r.servedCommit,
              headCommit: r.headCommit,
              lagCommits: r.headError ? null : r.lagCommits,
              lagSeconds: r.headError ? null : Math.round(r.lagSeconds),
              headError: r.headError,
              lastError: r.lastError,
            })),
          },
        };
        return sendJson(res, 200, info);
      }
      if (!REPOSITORY_PATHS.has(path)) {
        // Uploads, unknown paths and wrong methods: the shared router's answers (no repository is involved).
        return handleApiRequest(context(null), req, res, url);
      }
      const needed = ROUTE_TOOLS[path];
      if (needed !== undefined && !registry.get(needed)) {
        throw new ApiError(404, `${path} is not offered by the team server: a served index holds no git history, and the server runs no git.`, 'NOT_OFFERED');
      }
      const params = url.searchParams;
      const named = params.get('repo')?.trim() || undefined;
      const commit = params.get('commit')?.trim() || undefined;
      try {
        if (named !== undefined && !visible.includes(named)) throw new ApiError(404, unknownRepoText(named, visible), 'UNKNOWN_REPO');
        const repo = named ?? (visible.length === 1 ? visible[0] : undefined);
        if (repo === undefined) throw new ApiError(400, noRepoText(visible), 'BAD_INPUT');
        if (commit !== undefined && !isCommitArgument(commit)) throw new ApiError(400, BAD_COMMIT_TEXT, 'INVALID_ARGUMENTS');
        const shard = await pickShard(options.db, repo, commit);
        if ('error' in shard) throw new ApiError(409, shard.error, 'INDEX_MISSING');
        const lease = await options.cache.acquire(shard);
        try {
          const scoped = new URL(url);
          scoped.searchParams.set('repo', repo);
          scoped.searchParams.delete('commit');
          await handleApiRequest(context(new RepositorySet([lease.handle]), { repo, commit: shard.commit }), req, res, scoped);
        } finally {
          lease.release();
        }
      } catch (caught) {
        if (!(caught instanceof ApiError)) throw caught;
        sendApiError(res, caught);
      }
    },

    async page(req, res, path) {
      await serveStatic(res, assetsDir, path, req.method ?? 'GET');
    },
  };
}

/** The cookie (Secure when the request came through TLS at a proxy that says so). */
function sessionCookie(req: IncomingMessage, value: string, maxAge: number): string {
  const secure = req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAge}${secure}`;
}

const LOGIN_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The sign-in page: one form, no script. */
function sendLoginPage(res: ServerResponse, status: number, message: string | null, headers: Record<string, string> = {}): void {
  const note = message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>reponav — sign in</title>
<style>body{font:15px system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}input{width:100%;padding:.4rem;font:inherit;box-sizing:border-box}button{margin-top:.8rem;padding:.4rem 1rem;font:inherit}.error{color:#b00020}</style>
</head><body><h1>reponav</h1><p>Sign in with a team token (<code>reponav fleet token create</code>). It is kept in an HttpOnly cookie for this site only.</p>${note}
<form method="post" action="login"><label for="token">Token</label><input id="token" name="token" type="password" autocomplete="off" required autofocus><button type="submit">Sign in</button></form>
</body></html>`;
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': LOGIN_POLICY, 'Cache-Control': 'no-store', ...headers });
  res.end(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
