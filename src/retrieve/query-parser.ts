import { codeTokens, splitIdentifier } from '../index/index.js';
import { STOPWORDS } from './stopwords.js';
import { extractMessagePhrases } from './message-phrases.js';
import { extractLinkedLines, type LinkedLines } from './linked-lines.js';

/** A weighted search term (a token as the index stores it). */
export interface QueryTerm {
  token: string;
  /** Relative weight, 1 for plain words; code-like evidence raises it. */
  weight: number;
}

/** A stack frame found in the query. */
export interface QueryFrame {
  /** The file as written (may be absolute or from another machine). */
  file: string;
  /** Function or method name, when the frame has one. */
  functionName: string | null;
  line: number | null;
}

/**
 * What the query parser understood: everything a search's stages read of the
 * query, parsed once (a stage reads these fields, not the text again).
 */
export interface ParsedQuery {
  /** The query as given. */
  text: string;
  /** The first line of a multi-line query after boilerplate is stripped (an issue's title); '' for a one-line query. */
  title: string;
  terms: QueryTerm[];
  /** Identifiers that look like code (backticks, CamelCase, snake_case, dotted, calls), as written. */
  identifiers: string[];
  /** File paths mentioned (`a/b.py`, `foo.ts`). */
  paths: string[];
  frames: QueryFrame[];
  /** Lower-cased tokens (whole and split) for anchor matching in the scaffold. */
  anchorTokens: string[];
  /** Messages the query quotes (error texts, log lines; message-phrases.ts), searched as phrases. */
  phrases: string[];
  /** Line-anchored permalinks to the repository's code (linked-lines.ts). */
  links: LinkedLines[];
  /** The query's words as given: runs of non-space characters (code, paths and punctuation count as words). */
  words: number;
  /** True when the query, without its leading and trailing space, has more than one line (an issue's title and body). */
  multiline: boolean;
}

/** Runs of non-space characters in `text`: {@link ParsedQuery.words}. */
export function countWords(text: string): number {
  let words = 0;
  for (const _ of text.matchAll(/\S+/g)) words++;
  return words;
}

/** Weights of each kind of evidence; exposed so evaluation can tune them. */
export interface QueryWeights {
  plain: number;
  identifier: number;
  backticked: number;
  frameFunction: number;
  pathPart: number;
  /** Multiplier for tokens of the first line of a multi-line query (an issue's title). */
  title: number;
  /** Bracketed tags such as `[facebook]` or `[core]` at the start of a title name a component. */
  titleTag: number;
  /** Cap on how often one token may repeat in the issue before extra mentions stop adding weight. */
  maxFrequencyBoost: number;
  /**
   * Multiplier for words that only pasted log lines mention (`[debug] …`,
   * `2024-01-01 12:00 …`, `INFO …`): verbose logs and environment dumps repeat
   * the same tool and version words in every issue. 1 turns it off; below 0.5
   * a plain word is dropped (see lexical-retriever.ts).
   */
  logLine: number;
  /** Weight, relative to the word's own, of its inflection variants (`codes` → `code`, `reserving` → `reserve`); 0 turns them off. */
  variant: number;
}

/** What the repository knows, for a parse that weighs names against it. */
export interface QueryContext {
  /**
   * True when a name written as code (one part of a dotted name, as written)
   * is the repository's own; otherwise its tokens get `unknownNameWeight`
   * instead of the identifier or backtick weight: a user's own program
   * (`class Big`, `def foo`) rather than the code to change.
   */
  isKnownName?: (name: string) => boolean;
  /** True when a file path written in the query is one of the repository's; otherwise its parts get `unknownNameWeight`. */
  isKnownPath?: (path: string) => boolean;
  /** Base weight of an unknown name's tokens, wherever the query has them (default 1, a plain word's). */
  unknownNameWeight?: number;
}

export const DEFAULT_QUERY_WEIGHTS: QueryWeights = {
  plain: 1,
  identifier: 2,
  backticked: 3,
  frameFunction: 3,
  pathPart: 2,
  title: 2,
  titleTag: 3,
  maxFrequencyBoost: 2,
  logLine: 1,
  variant: 0,
};

const LOG_LINE = /^(?:\[[\w :./-]{1,40}\]\s|\d{4}-\d\d-\d\d[ T]\d\d:\d\d|(?:DEBUG|INFO|TRACE|WARN|WARNING)\b[\s:])/;

/** True for a line of pasted program output: a `[tag] ` prefix, a timestamp, or a DEBUG/INFO/WARNING level. */
export function isLogLine(line: string): boolean {
  return LOG_LINE.test(line.trim());
}

const HTML_COMMENT = /<!--[\s\S]*?-->/g;
const CHECKLIST_LINE = /^\s*[-*]\s*\[[ xX]\].*$/gm;
const URL = /https?:\/\/[^\s)\]>"']+/g;

/**
 * Base forms a word may have in code: plural and verb endings stripped
 * (`codes` → code, `reserving` → reserve/reserv, `parsed` → parse/pars).
 * Only for plain lower-case words of 5+ letters; results keep 3+ letters.
 */
export function inflectionVariants(word: string): string[] {
  if (word.length < 5 || !/^[a-z]+$/.test(word)) return [];
  const out = new Set<string>();
  const add = (stem: string) => {
    if (stem.length >= 3 && stem !== word) out.add(stem);
  };
  if (word.endsWith('ies')) add(word.slice(0, -3) + 'y');
  else if (word.endsWith('es') && /(ss|sh|ch|x|z)es$/.test(word)) add(word.slice(0, -2));
  else if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) add(word.slice(0, -1));
  for (const suffix of ['ing', 'ed']) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    add(stem);
    add(stem + 'e');
    if (/([b-df-hj-np-tv-z])\1$/.test(stem)) add(stem.slice(0, -1));
  }
  return [...out];
}

/** The first line of a multi-line query (an issue's title); '' for a one-line query. */
export function issueTitle(rawText: string): string {
  return titleOf(stripBoilerplate(rawText));
}

function titleOf(text: string): string {
  const trimmed = text.trim();
  const newline = trimmed.indexOf('\n');
  return newline > 0 ? trimmed.slice(0, newline) : '';
}

/**
 * Removes issue-template boilerplate that every issue of a project shares and
 * that would otherwise match the template files: HTML comments and checklists.
 */
export function stripBoilerplate(text: string): string {
  return text.replace(HTML_COMMENT, ' ').replace(CHECKLIST_LINE, ' ');
}

const PYTHON_FRAME = /File "([^"]+)", line (\d+)(?:, in ([A-Za-z_][\w.<>]*))?/g;
const JS_FRAME = /at (?:(?:async )?([A-Za-z_$][\w$.<>]*) )?\(?((?:[A-Za-z]:)?[^\s():]+\.[A-Za-z]+):(\d+)(?::\d+)?\)?/g;
const JAVA_FRAME = /at ([\w$]+(?:\.[\w$<>]+)+)\(([\w$]+\.(?:java|kt|scala)):(\d+)\)/g;
const BACKTICKED = /`{1,3}([^`\n]{1,200})`{1,3}/g;
const FILE_PATH = /(?:[\w.-]+\/)*[\w.-]+\.(?:py|pyi|js|jsx|mjs|cjs|ts|tsx|java|go|rs|c|h|cc|cpp|hpp|cs|rb|php|kt|swift|scala|lua|sh)\b/g;
const CAMEL = /\b[A-Za-z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+\b|\b[A-Z]{2,}[a-z][A-Za-z0-9]*\b/g;
const SNAKE = /\b_*[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b/g;
const DOTTED = /\b[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+\b/g;
const CALL = /\b([A-Za-z_][\w]*)\(/g;
const FLAG = /(?:^|\s)--([a-z][a-z0-9-]{2,})/g;

/**
 * Reads a query — a whole issue text or a short request — and extracts the
 * code-like evidence in it, weighting identifiers, backticked names, stack
 * frames and file paths above plain words. Deterministic.
 */
export function parseQuery(rawText: string, weights: QueryWeights = DEFAULT_QUERY_WEIGHTS, context: QueryContext = {}): ParsedQuery {
  const text = stripBoilerplate(rawText);
  const boosts = new Map<string, number>();
  const raise = (token: string, weight: number) => {
    if (token.length < 2 || STOPWORDS.has(token)) return;
    boosts.set(token, Math.max(boosts.get(token) ?? 0, weight));
  };
  const identifiers = new Set<string>();
  // Tokens of names the repository does not know; they keep `unknownName` weight unless a known name raises them too.
  const unknown = new Set<string>();
  const addIdentifier = (identifier: string, weight: number, checked = false) => {
    const cleaned = identifier.replace(/^[._]+|[._]+$/g, '');
    if (cleaned.length < 3) return;
    identifiers.add(cleaned);
    if (!checked || !context.isKnownName) {
      for (const token of codeTokens(cleaned)) raise(token, weight);
      return;
    }
    for (const part of cleaned.split('.')) {
      if (!part) continue;
      if (context.isKnownName(part)) for (const token of codeTokens(part)) raise(token, weight);
      else for (const token of codeTokens(part)) unknown.add(token);
    }
  };

  const frames: QueryFrame[] = [];
  for (const m of text.matchAll(PYTHON_FRAME)) frames.push({ file: m[1], line: Number(m[2]), functionName: m[3] ?? null });
  for (const m of text.matchAll(JAVA_FRAME)) {
    const parts = m[1].split('.');
    frames.push({ file: m[2], line: Number(m[3]), functionName: parts[parts.length - 1] });
  }
  for (const m of text.matchAll(JS_FRAME)) {
    if (/^https?$/.test(m[2])) continue;
    frames.push({ file: m[2], line: Number(m[3]), functionName: m[1] ? m[1].split('.').pop()! : null });
  }
  for (const frame of frames) {
    if (frame.functionName && !frame.functionName.startsWith('<')) addIdentifier(frame.functionName, weights.frameFunction);
  }

  const paths = new Set<string>();
  for (const m of text.matchAll(FILE_PATH)) {
    if (/^https?:/.test(m[0]) || m[0].includes('..')) continue;
    paths.add(m[0]);
    const tokens = codeTokens(m[0].replace(/\.[a-z]+$/, ''));
    if (context.isKnownPath && !context.isKnownPath(m[0])) for (const token of tokens) unknown.add(token);
    else for (const token of tokens) raise(token, weights.pathPart);
  }
  for (const frame of frames) paths.add(frame.file);

  for (const m of text.matchAll(BACKTICKED)) {
    for (const id of m[1].match(/[A-Za-z_][\w.]*/g) ?? []) addIdentifier(id, weights.backticked, true);
  }
  // A URL's host names the site or service involved; the rest of it is noise.
  const hosts: string[] = [];
  for (const m of text.matchAll(URL)) {
    const host = /^https?:\/\/([^/:?#]+)/.exec(m[0])?.[1] ?? '';
    const labels = host.split('.').filter((l) => l && l !== 'www');
    if (labels.length >= 2) hosts.push(labels[labels.length - 2]);
  }
  const prose = text.replace(URL, ' ') + ' ' + hosts.join(' ');
  const title = titleOf(text);
  for (const m of title.matchAll(/\[([A-Za-z][\w :.-]{1,40})\]/g)) {
    for (const part of m[1].split(/[\s:]+/)) addIdentifier(part, weights.titleTag);
  }
  const titleTokens = new Set(codeTokens(title));
  for (const pattern of [CAMEL, SNAKE, DOTTED]) for (const m of prose.matchAll(pattern)) addIdentifier(m[0], weights.identifier, true);
  for (const m of prose.matchAll(CALL)) addIdentifier(m[1], weights.identifier, true);
  for (const m of prose.matchAll(FLAG)) addIdentifier(m[1].replace(/-/g, '_'), weights.identifier);

  // Frequency: a token the issue repeats is likely central, up to a cap.
  const counts = new Map<string, number>();
  for (const token of codeTokens(prose)) counts.set(token, (counts.get(token) ?? 0) + 1);
  // Words only log lines carry (never the title or the prose around them).
  const logOnly = new Set<string>();
  if (weights.logLine !== 1) {
    const lines = prose.split('\n');
    const inProse = new Set<string>(titleTokens);
    for (let i = 1; i < lines.length; i++) if (!isLogLine(lines[i]!)) for (const t of codeTokens(lines[i]!)) inProse.add(t);
    for (let i = 1; i < lines.length; i++) if (isLogLine(lines[i]!)) for (const t of codeTokens(lines[i]!)) if (!inProse.has(t)) logOnly.add(t);
  }
  const damp = (token: string) => (logOnly.has(token) ? weights.logLine : 1);
  const terms: QueryTerm[] = [];
  for (const [token, count] of counts) {
    if (STOPWORDS.has(token) || token.length < 2 || /^\d+$/.test(token)) continue;
    const base = boosts.get(token) ?? (unknown.has(token) ? (context.unknownNameWeight ?? weights.plain) : weights.plain);
    const frequency = Math.min(weights.maxFrequencyBoost, 1 + Math.log2(count) / 2);
    terms.push({ token, weight: base * frequency * (titleTokens.has(token) ? weights.title : 1) * damp(token) });
  }
  for (const [token, weight] of boosts) {
    if (!counts.has(token)) terms.push({ token, weight: weight * (titleTokens.has(token) ? weights.title : 1) * damp(token) });
  }
  if (weights.variant > 0) {
    // Code names words in their base form (`reserve`, `code`); issues inflect them.
    const present = new Set(terms.map((t) => t.token));
    for (const term of [...terms]) {
      for (const variant of inflectionVariants(term.token)) {
        if (present.has(variant) || STOPWORDS.has(variant)) continue;
        present.add(variant);
        terms.push({ token: variant, weight: term.weight * weights.variant });
      }
    }
  }
  terms.sort((a, b) => b.weight - a.weight || (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));

  const anchorTokens = new Set<string>();
  for (const term of terms) anchorTokens.add(term.token);
  for (const id of identifiers) for (const part of splitIdentifier(id)) if (part.length > 2) anchorTokens.add(part);
  return {
    text: rawText,
    title: titleOf(text),
    terms,
    identifiers: [...identifiers],
    paths: [...paths],
    frames,
    anchorTokens: [...anchorTokens].filter((t) => t.length > 2 && !STOPWORDS.has(t)),
    phrases: extractMessagePhrases(rawText),
    links: extractLinkedLines(rawText),
    words: countWords(rawText),
    multiline: rawText.trim().includes('\n'),
  };
}
