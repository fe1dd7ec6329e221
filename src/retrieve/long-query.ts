/**
 * Issue texts longer than the query parser reads (pasted logs, environment
 * dumps, whole tracebacks: LocBench has issues of 38,834 characters) are
 * reduced to MAX_KEPT_QUERY_CHARS the way the parser already weighs issue
 * text: what it discounts goes first, what it weighs most stays. In order,
 * while the text is still too long: issue-template boilerplate; repeated
 * lines; the middle of each run of log lines (`[debug] …`, timestamps, INFO:
 * the parser's isLogLine), then every log line; the middle of long fenced
 * code blocks except stack-frame lines and the exception line; overlong
 * lines; and last the middle of the text (its head, with the title, and its
 * tail, where a traceback's exception usually is). A text within the limit is
 * returned unchanged, so ordinary queries rank exactly as before.
 */
import { isLogLine, stripBoilerplate } from './query-parser.js';

/** The most characters of a query that retrieval reads; longer queries are reduced to this (docs/mcp-tools.md). */
export const MAX_KEPT_QUERY_CHARS = 20_000;

/** Lines kept at each end of a run of log lines, and of a long code block. */
const LOG_RUN_ENDS = 3;
const CODE_BLOCK_ENDS = 10;
/** Longest line kept whole once everything else has been dropped. */
const MAX_LINE_CHARS = 400;

const FRAME_OR_EXCEPTION = /File "[^"]+", line \d+|\bat \S+ ?\(?\S+:\d+|^\s*(?:[\w.]+(?:Error|Exception|Warning)|Traceback)\b/;

/** A reduced query and how many characters were left out (0: unchanged). */
export interface ReducedQuery {
  text: string;
  droppedChars: number;
}

/** Reduces `text` to at most `maxChars` characters as the file comment says; unchanged when it fits. */
export function reduceLongQuery(text: string, maxChars = MAX_KEPT_QUERY_CHARS): ReducedQuery {
  if (text.length <= maxChars) return { text, droppedChars: 0 };
  let lines = stripBoilerplate(text).split('\n');
  const fits = () => lines.reduce((n, line) => n + line.length + 1, 0) <= maxChars + 1;
  const steps: ((all: string[]) => string[])[] = [
    dropRepeatedLines,
    (all) => dropRunMiddles(all, isLogLine, LOG_RUN_ENDS),
    (all) => all.filter((line, i) => i === 0 || !isLogLine(line)),
    dropCodeBlockMiddles,
    (all) => all.map((line) => (line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line)),
  ];
  for (const step of steps) {
    if (fits()) break;
    lines = step(lines);
  }
  let reduced = lines.join('\n');
  if (reduced.length > maxChars) reduced = headAndTail(reduced, maxChars);
  return { text: reduced, droppedChars: text.length - reduced.length };
}

function dropRepeatedLines(lines: string[]): string[] {
  const seen = new Set<string>();
  return lines.filter((line) => {
    const key = line.trim();
    if (key === '') return true;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Keeps the first and last `ends` lines of each run of lines that `inRun` accepts (never the first line: the title). */
function dropRunMiddles(lines: string[], inRun: (line: string) => boolean, ends: number): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    out.push(...(run.length > 2 * ends ? [...run.slice(0, ends), ...run.slice(-ends)] : run));
    run = [];
  };
  lines.forEach((line, i) => {
    if (i > 0 && inRun(line)) run.push(line);
    else {
      flush();
      out.push(line);
    }
  });
  flush();
  return out;
}

/** In each fenced code block, keeps its first and last lines and every stack-frame or exception line. */
function dropCodeBlockMiddles(lines: string[]): string[] {
  const out: string[] = [];
  let block: string[] | null = null;
  for (const line of lines) {
    const fence = /^\s*(```|~~~)/.test(line);
    if (block === null) {
      out.push(line);
      if (fence) block = [];
      continue;
    }
    if (!fence) {
      block.push(line);
      continue;
    }
    const keep = block.length > 2 * CODE_BLOCK_ENDS;
    out.push(...block.filter((l, i) => !keep || i < CODE_BLOCK_ENDS || i >= block!.length - CODE_BLOCK_ENDS || FRAME_OR_EXCEPTION.test(l)), line);
    block = null;
  }
  if (block) out.push(...block);
  return out;
}

/** The first three quarters and the last quarter of `maxChars`, cut at line ends where there are any. */
function headAndTail(text: string, maxChars: number): string {
  const tailChars = Math.floor(maxChars / 4);
  let head = text.slice(0, maxChars - tailChars - 1);
  let tail = text.slice(text.length - tailChars);
  const headEnd = head.lastIndexOf('\n');
  if (headEnd > head.length / 2) head = head.slice(0, headEnd);
  const tailStart = tail.indexOf('\n');
  if (tailStart >= 0 && tailStart < tail.length / 2) tail = tail.slice(tailStart + 1);
  return `${head}\n${tail}`;
}
