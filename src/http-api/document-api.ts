/**
 * The document half of the API: ask traces and evaluation summaries, opened
 * by a path on the server (`GET ?path=`) or uploaded from the browser
 * (`POST`, the file's text as the body, its name in `X-File-Name`). Both go
 * through the same validation, so an upload and a path give the same answer.
 */
import type { IncomingMessage } from 'node:http';
import type { ReportResponse, TraceResponse } from './api-types.js';
import { ApiError, readBodyText, type BodyLimit } from './http-io.js';
import { MAX_DOCUMENT_BYTES, parseJsonText, readJsonDocument } from './json-document.js';
import { parseReport } from './report-shape.js';
import { parseAskTrace } from './trace-shape.js';

/** Where relative document paths start. */
export interface DocumentApiContext {
  /** Null: documents cannot be opened by path, only uploaded (the team server reads no files for its callers). */
  baseDir: string | null;
}

function baseDirOf(ctx: DocumentApiContext): string {
  if (ctx.baseDir === null) throw new ApiError(403, 'This server opens no files by path; upload the file instead.', 'FORBIDDEN');
  return ctx.baseDir;
}

/** An upload's body limit: a server that opens files by path points there for larger ones. */
function uploadLimit(ctx: DocumentApiContext, route: string): BodyLimit {
  return { maxBytes: MAX_DOCUMENT_BYTES, route, ...(ctx.baseDir === null ? {} : { instead: 'open it by path instead' }) };
}

/** The uploaded file's name for messages (a header the page sets), sanitised. */
function uploadName(req: IncomingMessage, fallback: string): string {
  const raw = req.headers['x-file-name'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return fallback;
  let name: string;
  try {
    name = decodeURIComponent(value);
  } catch {
    name = value;
  }
  // Only the last path part, printable, short: it is echoed into the page.
  return name.split(/[\\/]/).pop()!.replace(/[^\x20-\x7e\u00a0-\uffff]/g, '').slice(0, 120) || fallback;
}

function pathParam(params: URLSearchParams): string {
  const path = params.get('path');
  if (path === null || path.trim() === '') throw new ApiError(400, 'Give the path of a file on the server (path).', 'BAD_INPUT');
  return path;
}

/** `GET /api/trace?path=`. */
export async function getTrace(ctx: DocumentApiContext, params: URLSearchParams): Promise<TraceResponse> {
  const { path, value } = await readJsonDocument(pathParam(params), { baseDir: baseDirOf(ctx) });
  return { source: path, ...parseAskTrace(value, path) };
}

/** `POST /api/trace`. */
export async function postTrace(ctx: DocumentApiContext, req: IncomingMessage): Promise<TraceResponse> {
  const name = uploadName(req, 'the uploaded trace');
  const value = parseJsonText(await readBodyText(req, uploadLimit(ctx, 'POST /api/trace')), name);
  return { source: name, ...parseAskTrace(value, name) };
}

/** `GET /api/report?path=`; a folder stands for its `summary.json`. */
export async function getReport(ctx: DocumentApiContext, params: URLSearchParams): Promise<ReportResponse> {
  const { path, value } = await readJsonDocument(pathParam(params), { baseDir: baseDirOf(ctx), folderFile: 'summary.json' });
  return parseReport(value, path);
}

/** `POST /api/report`. */
export async function postReport(ctx: DocumentApiContext, req: IncomingMessage): Promise<ReportResponse> {
  const name = uploadName(req, 'the uploaded summary');
  const value = parseJsonText(await readBodyText(req, uploadLimit(ctx, 'POST /api/report')), name);
  return parseReport(value, name);
}
