/**
 * Pull a JSON object out of free-form model text and validate it with zod.
 * Models wrap JSON in code fences, prepend prose, or leave trailing commas;
 * those are tolerated. Anything else becomes a typed failure whose
 * `correction` can be sent straight back to the model to ask for a fix.
 */
import type * as z from '../zod-mini.js';
import type { ChatMessage } from './chat-model.js';

/** One validation problem, with a JSONPath-like location (`$.files[0].path`). */
export interface JsonReplyIssue {
  path: string;
  message: string;
}

/**
 * Why the reply was unusable: no JSON found, JSON found but unparseable, or
 * parsed but not matching the schema. `correction` is a ready-made message
 * for the model; `issues` is empty unless `kind` is 'schema-mismatch'.
 */
export interface JsonReplyError {
  kind: 'no-json' | 'invalid-json' | 'schema-mismatch';
  message: string;
  issues: JsonReplyIssue[];
  correction: string;
}

/** Result of {@link parseJsonReply}: never throws for bad model output. */
export type JsonReplyResult<T> = { ok: true; value: T } | { ok: false; error: JsonReplyError };

/**
 * Extract the first JSON value from `text` that both parses and satisfies
 * `schema`. Candidates, in order: contents of ``` / ```json fences, then each
 * balanced `{…}` span in the text. Trailing commas before `}`/`]` are removed
 * if plain parsing fails. When several candidates parse but none validates,
 * the issues reported are those of the first.
 */
export function parseJsonReply<S extends z.ZodMiniType>(text: string, schema: S): JsonReplyResult<z.output<S>> {
  let firstParsed: { value: unknown } | undefined;
  let parseFailure: string | undefined;
  for (const candidate of candidates(text)) {
    const parsed = parseLenient(candidate);
    if (!parsed.ok) {
      parseFailure ??= parsed.message;
      continue;
    }
    const result = schema.safeParse(parsed.value);
    if (result.success) return { ok: true, value: result.data };
    firstParsed ??= { value: parsed.value };
  }
  if (firstParsed) {
    const result = schema.safeParse(firstParsed.value);
    const issues = result.success ? [] : result.error.issues.map(toIssue);
    const message = `JSON does not match the expected shape: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`;
    return { ok: false, error: failure('schema-mismatch', message, issues) };
  }
  if (parseFailure !== undefined) {
    return { ok: false, error: failure('invalid-json', `Reply contains malformed JSON: ${parseFailure}`, []) };
  }
  return { ok: false, error: failure('no-json', 'Reply contains no JSON object', []) };
}

/** The corrective user turn to append to the conversation after a failed parse. */
export function correctiveMessage(error: JsonReplyError): ChatMessage {
  return { role: 'user', content: error.correction };
}

function failure(kind: JsonReplyError['kind'], message: string, issues: JsonReplyIssue[]): JsonReplyError {
  const lines = [`Your previous reply could not be used. ${message}.`];
  if (issues.length > 0) {
    lines.push('Problems:');
    for (const issue of issues.slice(0, 20)) lines.push(`- at ${issue.path}: ${issue.message}`);
    if (issues.length > 20) lines.push(`- …and ${issues.length - 20} more`);
  }
  lines.push('Reply again with only the corrected JSON object: no explanation before or after it.');
  return { kind, message, issues, correction: lines.join('\n') };
}

function toIssue(issue: z.$ZodIssue): JsonReplyIssue {
  let path = '$';
  for (const key of issue.path) {
    if (typeof key === 'number') path += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) path += `.${key}`;
    else path += `[${JSON.stringify(String(key))}]`;
  }
  return { path, message: issue.message };
}

/** Fenced blocks first (the model's explicit answer), then bare `{…}` spans. */
function* candidates(text: string): Generator<string> {
  const fence = /```[ \t]*([A-Za-z0-9_-]*)[^\n]*\n([\s\S]*?)```/g;
  for (const match of text.matchAll(fence)) {
    const lang = match[1]!.toLowerCase();
    if (lang === '' || lang === 'json' || lang === 'jsonc' || lang === 'json5') yield match[2]!.trim();
  }
  yield* jsonObjectSpans(text);
}

/**
 * The outermost balanced `{…}` spans of `text`, in order (braces inside JSON
 * strings respected): where bare JSON objects may sit in prose. A nested
 * object never stands in for its parent.
 */
export function* jsonObjectSpans(text: string): Generator<string> {
  let start = text.indexOf('{');
  while (start >= 0) {
    const end = matchingBrace(text, start);
    if (end >= 0) yield text.slice(start, end + 1);
    start = text.indexOf('{', end >= 0 ? end + 1 : start + 1);
  }
}

/** Index of the `}` closing the `{` at `start`, respecting strings; -1 if unbalanced. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

function parseLenient(candidate: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(candidate) };
  } catch (error) {
    const repaired = stripTrailingCommas(candidate);
    if (repaired !== candidate) {
      try {
        return { ok: true, value: JSON.parse(repaired) };
      } catch {
        // report the original error: it points at the real problem
      }
    }
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** Remove commas directly before `}` or `]` (whitespace allowed), outside strings. */
function stripTrailingCommas(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const ch = json[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += json[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === ',') {
      let j = i + 1;
      while (j < json.length && /\s/.test(json[j]!)) j++;
      if (json[j] === '}' || json[j] === ']') continue;
    }
    out += ch;
  }
  return out;
}
