/**
 * Reading the JSON documents the page opens by path (traces, summaries):
 * relative paths are taken from the folder `reponav ui` was started in, size
 * is bounded, and every failure is one sentence with a status. Parse errors
 * never quote the file's text, so a wrong path cannot be used to read other
 * files through the error message.
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { ApiError } from './http-io.js';

/** Largest document opened (a long MCTS trace is a few MB). */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/** Where relative paths start, and which file a folder stands for. */
export interface DocumentLocation {
  baseDir: string;
  /** When the path is a folder, open this file inside it (e.g. `summary.json`). */
  folderFile?: string;
}

/** Resolves `userPath` against the base folder (expanding a leading `~/`). */
export function resolveDocumentPath(userPath: string, baseDir: string): string {
  const trimmed = userPath.trim();
  const home = process.env.HOME;
  const expanded = home && (trimmed === '~' || trimmed.startsWith('~/')) ? join(home, trimmed.slice(1)) : trimmed;
  return isAbsolute(expanded) ? resolve(expanded) : resolve(baseDir, expanded);
}

/** Parses JSON text; a failure names `origin` and the position, not the content. */
export function parseJsonText(text: string, origin: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (caught) {
    const position = /position (\d+)/.exec(caught instanceof Error ? caught.message : '');
    const where = position ? ` (at character ${position[1]})` : '';
    throw new ApiError(422, `${origin} is not valid JSON${where}.`, 'BAD_JSON');
  }
}

/** Reads and parses the JSON document at `userPath`; returns it with the resolved path. */
export async function readJsonDocument(userPath: string, location: DocumentLocation): Promise<{ path: string; value: unknown }> {
  if (userPath.trim() === '') throw new ApiError(400, 'Give a file path.', 'BAD_INPUT');
  if (userPath.includes('\0')) throw new ApiError(400, 'The path contains a NUL character.', 'BAD_INPUT');
  let path = resolveDocumentPath(userPath, location.baseDir);
  let info = await statOrThrow(path, userPath);
  if (info.isDirectory() && location.folderFile) {
    path = join(path, location.folderFile);
    info = await statOrThrow(path, `${userPath} (looking for ${location.folderFile} in the folder)`);
  }
  if (!info.isFile()) throw new ApiError(400, `${userPath} is not a file.`, 'BAD_INPUT');
  if (info.size > MAX_DOCUMENT_BYTES) throw new ApiError(413, `${userPath} is larger than ${MAX_DOCUMENT_BYTES / (1024 * 1024)} MB.`, 'TOO_LARGE');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (caught) {
    throw fsError(caught, userPath);
  }
  return { path, value: parseJsonText(text, path) };
}

async function statOrThrow(path: string, shown: string) {
  try {
    return await stat(path);
  } catch (caught) {
    throw fsError(caught, shown);
  }
}

function fsError(caught: unknown, shown: string): ApiError {
  const code = (caught as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new ApiError(404, `No file at ${shown}.`, 'FILE_NOT_FOUND');
  if (code === 'EACCES' || code === 'EPERM') return new ApiError(403, `${shown} cannot be read (permission denied).`, 'FORBIDDEN');
  return new ApiError(500, `${shown} could not be read: ${code ?? 'unknown error'}.`, 'INTERNAL');
}
