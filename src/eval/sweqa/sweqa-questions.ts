/**
 * SWE-QA inputs: the question JSONL (id, repo, commit_short,
 * qtype_first_word, question, answer) and the repository-commit list (one
 * `https://github.com/owner/name SHORT` per line).
 */
import { readFileSync } from 'node:fs';
import * as z from '../../zod-mini.js';
import { ReponavError } from '../../errors.js';
import { readJsonlLines } from '../jsonl.js';

/** The question types reported (the question's first word); anything else is `other`. */
export const QUESTION_TYPES = ['what', 'why', 'where', 'how'] as const;

const LineSchema = z.object({
  id: z.pipe(z.union([z.string().check(z.minLength(1)), z.number()]), z.transform(String)),
  repo: z.string().check(z.regex(/^[\w.-]+\/[\w.-]+$/, 'repo must be owner/name')),
  commit_short: z.optional(z.string().check(z.regex(/^[0-9a-fA-F]{4,40}$/))),
  qtype_first_word: z.optional(z.string()),
  question: z.string().check(z.minLength(1)),
  answer: z.string(),
});

/** One benchmark question. */
export interface SweqaQuestion {
  id: string;
  /** `owner/name` */
  repo: string;
  /** Commit from the question line, if it has one. */
  commit: string | null;
  /** what / why / where / how / other */
  qtype: string;
  question: string;
  /** The reference answer. */
  reference: string;
}

/** A line that could not be used. */
export interface MalformedQuestion {
  lineNumber: number;
  reason: string;
}

/** The question type: `qtype_first_word` if given, else the first word; `other` outside what/why/where/how. */
export function questionType(question: string, given?: string): string {
  const word = (given ?? question.trim().split(/\s+/)[0] ?? '').toLowerCase().replace(/[^a-z]/g, '');
  return (QUESTION_TYPES as readonly string[]).includes(word) ? word : 'other';
}

/** Reads a question JSONL; bad lines are returned, not thrown (FILE_NOT_FOUND when the file is missing). Duplicate ids keep the first. */
export async function readSweqaQuestions(path: string): Promise<{ questions: SweqaQuestion[]; malformed: MalformedQuestion[] }> {
  const questions: SweqaQuestion[] = [];
  const malformed: MalformedQuestion[] = [];
  const seen = new Set<string>();
  for await (const line of readJsonlLines(path)) {
    if (!line.ok) {
      malformed.push({ lineNumber: line.lineNumber, reason: line.reason });
      continue;
    }
    const parsed = LineSchema.safeParse(line.value);
    if (!parsed.success) {
      malformed.push({ lineNumber: line.lineNumber, reason: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
      continue;
    }
    const q = parsed.data;
    if (seen.has(q.id)) {
      malformed.push({ lineNumber: line.lineNumber, reason: `duplicate id ${q.id}` });
      continue;
    }
    seen.add(q.id);
    questions.push({ id: q.id, repo: q.repo, commit: q.commit_short ?? null, qtype: questionType(q.question, q.qtype_first_word), question: q.question, reference: q.answer });
  }
  return { questions, malformed };
}

/** Parses the repository-commit list: `https://github.com/owner/name SHORT` (or `owner/name SHORT`) per line; blank and `#` lines skipped. */
export function parseRepoCommits(text: string): Map<string, string> {
  const commits = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:https?:\/\/github\.com\/)?([\w.-]+\/[\w.-]+?)(?:\.git)?\/?\s+([0-9a-fA-F]{4,40})$/.exec(line);
    if (match) commits.set(match[1]!, match[2]!);
  }
  return commits;
}

/** Reads and parses a repository-commit list; FILE_NOT_FOUND when missing. */
export function readRepoCommits(path: string): Map<string, string> {
  try {
    return parseRepoCommits(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ReponavError('FILE_NOT_FOUND', `cannot read the repository commit list ${path}: ${(error as Error).message}`, { path });
  }
}
