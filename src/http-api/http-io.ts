/**
 * Small HTTP helpers of the web view: one error type carrying a status, JSON
 * answers with the safety headers every response gets, and a bounded body
 * reader (uploads are traces and reports, not arbitrary files).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isReponavError } from '../errors.js';
import { formatBytes } from '../plural.js';
import type { ApiErrorBody } from './api-types.js';

/** An API failure with the status and message the page shows. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly extra: Partial<ApiErrorBody> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** HTTP status for a tool or ReponavError code: the caller's fault is 4xx, ours 5xx. */
export function statusForCode(code: string | undefined): number {
  switch (code) {
    case 'BAD_INPUT':
    case 'INVALID_ARGUMENTS':
      return 400;
    case 'PATH_OUTSIDE_ROOT':
      return 403;
    case 'FILE_NOT_FOUND':
    case 'UNKNOWN_TOOL':
      return 404;
    case 'INDEX_MISSING':
    case 'INDEX_CORRUPT':
    case 'EMPTY_REPOSITORY':
    case 'NOT_A_GIT_REPOSITORY':
    case 'UNKNOWN_REVISION':
      return 409;
    case 'INDEX_BUSY':
    case 'INDEX_UNAVAILABLE':
      return 503;
    case 'INTERNAL':
    case 'INSTALLATION_INCOMPLETE':
    case undefined:
      return 500;
    default:
      return 400;
  }
}

/** Any thrown value as an ApiError (ReponavErrors keep their message and get a status). */
export function toApiError(caught: unknown): ApiError {
  if (caught instanceof ApiError) return caught;
  if (isReponavError(caught)) return new ApiError(statusForCode(caught.code), caught.message, caught.code);
  const message = caught instanceof Error ? caught.message : String(caught);
  return new ApiError(500, `Internal error: ${message}`, 'INTERNAL');
}

/** Headers on every answer: no sniffing, no referrer leaks, no framing by other sites. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Sends `body` as JSON with `status`; API answers are never cached (the index changes under them). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** Sends an ApiError as `{ error, code }`. */
export function sendApiError(res: ServerResponse, error: ApiError): void {
  const body: ApiErrorBody = { error: error.message, ...(error.code ? { code: error.code } : {}), ...error.extra };
  const headers: Record<string, string> = { ...(error.status === 503 ? { 'Retry-After': '2' } : {}), ...error.headers };
  sendJson(res, error.status, body, headers);
}

/** A route's body limit, and what the 413 reply tells the caller. */
export interface BodyLimit {
  maxBytes: number;
  /** The route as the reply names it (`POST /login`). */
  route: string;
  /** What to do instead, when there is something (`open it by path instead`). */
  instead?: string;
}

/** Reads a request body as UTF-8 text, refusing bodies over `limit.maxBytes` with 413 naming the route and its real limit. */
export async function readBodyText(req: IncomingMessage, limit: BodyLimit): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit.maxBytes) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit.maxBytes) throw tooLarge(limit);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The 413 sentence: the limit stated exactly (`16 KiB`), never rounded down to "0 MB". */
export function tooLargeText(limit: BodyLimit): string {
  return `The body of ${limit.route} is larger than its ${formatBytes(limit.maxBytes)} limit${limit.instead ? `; ${limit.instead}` : ''}.`;
}

function tooLarge(limit: BodyLimit): ApiError {
  return new ApiError(413, tooLargeText(limit), 'TOO_LARGE');
}
