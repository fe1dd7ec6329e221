/**
 * Restoring `process.env` after a test changed it. The object itself is kept
 * and its keys put back: test files share a fork's modules, and a module that
 * read `process.env` once at import (env-paths keeps the object it found)
 * would go on reading a replaced object, so another file's later change to
 * the environment would not reach it.
 */

/** Puts `process.env` back to `saved` (a copy taken before): keys added since are deleted, changed ones set back. */
export function restoreEnv(saved: Readonly<Record<string, string | undefined>>): void {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}
