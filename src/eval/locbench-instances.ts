/**
 * LocBench instance files (one JSON object a line, Loc-Bench_V1 fields). Reading
 * validates each line with zod; a malformed line is reported with its line
 * number and reason and skipped — never fatal.
 */
import * as z from '../zod-mini.js';
import { ReponavError } from '../errors.js';
import { readJsonlLines } from './jsonl.js';
import { countOf } from '../plural.js';

/** `owner/name`, no path tricks (used to build directory names). */
export const REPO_NAME_PATTERN = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

const instanceSchema = z.looseObject({
  instance_id: z.string().check(z.minLength(1)),
  repo: z.string().check(z.regex(REPO_NAME_PATTERN, 'expected "owner/name"')),
  base_commit: z.string().check(z.regex(/^[0-9a-fA-F]{7,64}$/, 'expected a hex commit id')),
  // Loc-Bench always has a category; other LocAgent-shaped files may not.
  category: z._default(z.string(), 'Uncategorized'),
  problem_statement: z.string(),
  patch: z.optional(z.string()),
  edit_functions: z.array(z.string()),
});

/** One LocBench instance (extra fields of the line are kept but untyped). */
export interface LocbenchInstance {
  instance_id: string;
  /** `owner/name` */
  repo: string;
  base_commit: string;
  category: string;
  /** The issue text: the localization query. */
  problem_statement: string;
  /** The fix (never an input to localization). */
  patch?: string;
  /** The gold: `path/file.py:Class.method` or `path/file.py:function`. */
  edit_functions: string[];
}

/** A line of an input file that was not used, and why. */
export interface MalformedLine {
  lineNumber: number;
  /** The instance id when the line had one. */
  instanceId?: string;
  reason: string;
}

/** Result of reading an instance file: the valid instances in file order plus the rejected lines. */
export interface LocbenchInstanceFile {
  instances: LocbenchInstance[];
  malformed: MalformedLine[];
}

/**
 * Validates one parsed JSON value as an instance; returns the instance or a
 * human-readable reason (zod issues joined).
 */
export function parseLocbenchInstance(value: unknown): { ok: true; instance: LocbenchInstance } | { ok: false; reason: string } {
  const parsed = instanceSchema.safeParse(value);
  if (parsed.success) return { ok: true, instance: parsed.data };
  const reason = parsed.error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(line)'}: ${issue.message}`)
    .join('; ');
  return { ok: false, reason };
}

/**
 * Reads a LocBench JSONL file. Invalid JSON, schema violations and repeated
 * `instance_id`s (the later line loses) go to `malformed`. Throws ReponavError
 * FILE_NOT_FOUND for a missing file, and BAD_INPUT (naming the first bad line)
 * when not one line is a usable instance: an input of nothing is not a run of 0.
 */
export async function readLocbenchInstances(path: string): Promise<LocbenchInstanceFile> {
  const instances: LocbenchInstance[] = [];
  const malformed: MalformedLine[] = [];
  const seen = new Set<string>();
  for await (const line of readJsonlLines(path)) {
    if (!line.ok) {
      malformed.push({ lineNumber: line.lineNumber, reason: line.reason });
      continue;
    }
    const parsed = parseLocbenchInstance(line.value);
    if (!parsed.ok) {
      const id = (line.value as { instance_id?: unknown } | null)?.instance_id;
      malformed.push({
        lineNumber: line.lineNumber,
        ...(typeof id === 'string' ? { instanceId: id } : {}),
        reason: parsed.reason,
      });
      continue;
    }
    if (seen.has(parsed.instance.instance_id)) {
      malformed.push({
        lineNumber: line.lineNumber,
        instanceId: parsed.instance.instance_id,
        reason: 'duplicate instance_id (an earlier line is used)',
      });
      continue;
    }
    seen.add(parsed.instance.instance_id);
    instances.push(parsed.instance);
  }
  if (instances.length === 0) {
    const first = malformed[0];
    const why = first
      ? `line ${first.lineNumber}: ${first.reason} (${malformed.length} ${malformed.length === 1 ? 'line' : 'lines'}, none usable)`
      : 'it has no lines';
    throw new ReponavError('BAD_INPUT', `There is no readable LocBench instance in ${path}: ${why}; give a JSONL file of LocBench instances.`, { path });
  }
  return { instances, malformed };
}

/** The one warning for an instance file with lines that are not instances, or null when every line was used. */
export function skippedLinesNote(path: string, file: LocbenchInstanceFile): string | null {
  const first = file.malformed[0];
  if (!first) return null;
  const total = file.instances.length + file.malformed.length;
  return `skipped ${file.malformed.length} of ${countOf(total, 'line')} of ${path} that are not LocBench instances (first: line ${first.lineNumber}: ${first.reason})`;
}
