/**
 * What went wrong with an index file, told apart: damage SQLite itself proves
 * (the only reason to rebuild) versus everything that says nothing about the
 * file (the native module, permissions, locks, a full disk), reported with
 * what to do and never acted on.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ReponavError } from '../../errors.js';
import { displayPath } from '../sources/index.js';

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** True when SQLite reports the file damaged or not a database at all. */
export function isCorruption(error: unknown): boolean {
  const code = codeOf(error);
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';
}

/** True when the native SQLite module could not be loaded (built for another Node.js or platform). */
export function isNativeModuleFailure(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return (
    codeOf(error) === 'ERR_DLOPEN_FAILED' ||
    /NODE_MODULE_VERSION|compiled against a different Node\.js|Could not locate the bindings file|better_sqlite3\.node/.test(message)
  );
}

/**
 * A typed error for a failure to open or use the index at `path` (null: not
 * known here) that proves nothing about its contents; the message says what to
 * do and that the file was left alone. Damage SQLite reports becomes
 * INDEX_CORRUPT, pointing at `reponav index --check`. Errors already typed, and
 * unknown ones, pass through.
 */
export function describeOpenFailure(path: string | null, error: unknown): unknown {
  if (error instanceof ReponavError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = codeOf(error);
  const where = path ? `the index at ${displayPath(path)}` : 'the index';
  const Where = where[0].toUpperCase() + where.slice(1);
  const untouched = 'the index was left as it is';
  const fail = (text: string) => new ReponavError('INDEX_UNAVAILABLE', text, { cause: message, path });
  // A folder where the index file belongs reads as "unable to open database file" or "disk I/O error": name it.
  if (path && isFolder(path)) {
    return fail(`${displayPath(path)} is a folder, not an index file; remove or rename that folder, or give --index-path a file path (such as ${displayPath(join(path, 'index.db'))}); ${untouched}.`);
  }
  if (isCorruption(error)) {
    return new ReponavError('INDEX_CORRUPT', `${Where} is damaged (SQLite: ${message}); run \`reponav index --check\` to check it and rebuild it.`, { path, damage: message });
  }
  if (isNativeModuleFailure(error)) {
    return fail(
      `SQLite's native module (better-sqlite3) does not load in this Node.js ${process.version} (${message.split('\n')[0]}); ` +
        `run \`npm rebuild better-sqlite3\` in reponav's folder (or reinstall reponav) with this Node.js; ${untouched}.`,
    );
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_PERM' || code === 'SQLITE_AUTH' || code.startsWith('SQLITE_READONLY') || code === 'EROFS') {
    return fail(
      `Cannot open ${where} for reading and writing (${message}); check that you own that folder and its files and that it is writable, ` +
        `or set REPONAV_CACHE_DIR (or --index-path) to a writable place; ${untouched}.`,
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return fail(`${Where} is locked by another process (${message}); try again when it has finished; ${untouched}.`);
  }
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return fail(`The disk holding ${where} is full (${message}); free some space and run the command again; ${untouched}.`);
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') {
    return fail(`Reading or writing ${where} failed (${message}); check the disk, then run the command again; ${untouched}.`);
  }
  return error;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
