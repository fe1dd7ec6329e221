/**
 * Resume never mixes configurations: a run folder records every setting that
 * can change an answer, and a resumed run with any difference is refused
 * with one sentence naming the differences — unless the caller allows it,
 * which is then recorded in the run itself (`allowedChanges`).
 */
import { ReponavError } from '../errors.js';

/** One accepted difference between a run's recorded settings and a resume's. */
export interface AllowedChange {
  at: string;
  /** `key: before → after`, one per differing setting. */
  differences: string[];
}

/**
 * The settings that differ between `previous` and `current`, as
 * `key: before → after` (keys dotted into nested objects; a key missing on
 * one side shows as `(not recorded)`). `ignore` lists top-level keys that
 * are bookkeeping, not settings.
 */
export function settingDifferences(previous: unknown, current: unknown, ignore: readonly string[] = []): string[] {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, key: string): void => {
    if (isPlainObject(a) && isPlainObject(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const k of keys) {
        if (key === '' && ignore.includes(k)) continue;
        walk(a[k], b[k], key === '' ? k : `${key}.${k}`);
      }
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${key}: ${show(a)} → ${show(b)}`);
  };
  walk(previous, current, '');
  return out;
}

/**
 * Checks a resume: returns the `allowedChanges` to record (the previous
 * ones, plus this resume's differences when `allow` is set), or throws
 * BAD_INPUT naming every difference when there are some and `allow` is not set.
 */
export function checkResumeSettings(options: {
  folder: string;
  previous: Record<string, unknown>;
  current: Record<string, unknown>;
  ignore: readonly string[];
  allow: boolean;
}): AllowedChange[] {
  const earlier = Array.isArray(options.previous.allowedChanges) ? (options.previous.allowedChanges as AllowedChange[]) : [];
  const differences = settingDifferences(options.previous, options.current, [...options.ignore, 'allowedChanges']);
  if (differences.length === 0) return earlier;
  if (!options.allow) {
    throw new ReponavError(
      'BAD_INPUT',
      `${options.folder} holds a run made with other settings (${differences.join('; ')}); use another --out folder, or --allow-changed-settings to resume anyway (recorded in run.json).`,
      { differences },
    );
  }
  return [...earlier, { at: new Date().toISOString(), differences }];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function show(v: unknown): string {
  return v === undefined ? '(not recorded)' : JSON.stringify(v);
}
