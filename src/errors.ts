/**
 * Typed errors shared by every layer. Each carries a stable `code` that callers
 * (CLI exit handling, MCP `isError` results) can switch on, and a message that
 * tells the user what to do next.
 */
export type ReponavErrorCode =
  | 'BAD_INPUT'
  | 'PATH_OUTSIDE_ROOT'
  | 'FILE_NOT_FOUND'
  | 'NOT_A_GIT_REPOSITORY'
  | 'UNKNOWN_REVISION'
  | 'EMPTY_REPOSITORY'
  | 'INDEX_MISSING'
  | 'INDEX_CORRUPT'
  /** The index cannot be opened or written for a reason that says nothing about its contents (native module, permission, lock, full disk). */
  | 'INDEX_UNAVAILABLE'
  /** Another process holds the index's writer lock. */
  | 'INDEX_BUSY'
  | 'UNSUPPORTED_LANGUAGE'
  | 'EMBEDDER_ERROR'
  | 'LLM_ERROR'
  | 'BUDGET_EXCEEDED'
  /** The team server's PostgreSQL database cannot be reached or is not migrated. */
  | 'TEAM_DATABASE'
  /** reponav's own files (a grammar or query file) are missing: the installation is incomplete. */
  | 'INSTALLATION_INCOMPLETE'
  | 'INTERNAL';

export class ReponavError extends Error {
  readonly code: ReponavErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: ReponavErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ReponavError';
    this.code = code;
    this.details = details;
  }
}

/** True when `error` is a ReponavError (optionally of the given code). */
export function isReponavError(error: unknown, code?: ReponavErrorCode): error is ReponavError {
  return error instanceof ReponavError && (code === undefined || error.code === code);
}

/**
 * Whether `error`, thrown by `import()` or `require()` of the optional
 * package `name`, says that package is not installed (Node's
 * ERR_MODULE_NOT_FOUND / MODULE_NOT_FOUND; bundlers' resolvers, as vite's in
 * tests, say "Could not resolve" / "Cannot find package"), as opposed to a
 * package that is there but fails to load.
 */
export function isMissingPackage(error: unknown, name: string): boolean {
  const code = (error as { code?: string } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const notFound = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /could not resolve|cannot find (package|module)/i.test(message);
  return notFound && message.includes(name);
}
