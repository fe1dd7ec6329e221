import { chunksWithBodyPhraseUpTo, codeTokens, indexGeneration } from '../index/index.js';
import type { IndexStore } from '../index/index.js';

/** Longest phrase (in tokens) sent to the index; longer messages are cut to their start. */
const MAX_PHRASE_TOKENS = 12;
const ERROR_MARKER = /(?:^|\s)(?:ERROR|Error|error|WARNING|Warning|FATAL|Fatal|[A-Z][A-Za-z]*(?:Error|Exception|Warning)):\s*(.+)$/;
const QUOTED = /"([^"\n]{8,160})"|“([^”\n]{8,160})”/g;

/**
 * Messages quoted in a query: the text after `ERROR:`-style markers and
 * `SomeError:` prefixes, and double-quoted strings. Code that prints a message
 * usually contains its words in order, so an exact phrase match is strong
 * evidence of where the message comes from. Deterministic, de-duplicated.
 */
export function extractMessagePhrases(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const match = ERROR_MARKER.exec(line.trim());
    if (!match) continue;
    // `[site] id: message` prefixes name the context, not the message.
    const message = match[1].replace(/^(\[[^\]]*\]\s*)+/, '').replace(/^[\w-]+:\s+/, '');
    if (message.length >= 8) out.add(message.slice(0, 300));
  }
  for (const match of text.matchAll(QUOTED)) out.add(match[1] ?? match[2]);
  return [...out].slice(0, 12);
}

/** One phrase found in the index. */
export interface PhraseMatch {
  phrase: string;
  /** How many tokens of the phrase (a suffix) matched. */
  tokens: number;
  chunkIds: number[];
}

/**
 * Looks each phrase up as an exact token sequence in chunk bodies, shortening
 * it from the front (messages are often assembled from a fixed prefix and a
 * specific tail) down to `minTokens`. A phrase that matches more than
 * `maxChunks` chunks says little and is dropped.
 */
export function findPhraseMatches(store: IndexStore, phrases: string[], options: { minTokens?: number; maxChunks?: number } = {}): PhraseMatch[] {
  const minTokens = options.minTokens ?? 3;
  const maxChunks = options.maxChunks ?? 20;
  const matches: PhraseMatch[] = [];
  if (phrases.length === 0) return matches;
  // Asked once: a dozen phrases shortened word by word are ~10^2 lookups, each reading the index state otherwise.
  const generation = indexGeneration(store);
  for (const phrase of phrases) {
    const tokens = codeTokens(phrase).slice(0, MAX_PHRASE_TOKENS);
    for (let start = 0; tokens.length - start >= minTokens; start++) {
      const sequence = tokens.slice(start);
      const ids = chunksWithBodyPhraseUpTo(store, sequence, maxChunks, generation);
      if (ids?.length === 0) continue;
      if (ids) matches.push({ phrase, tokens: sequence.length, chunkIds: ids });
      break;
    }
  }
  return matches;
}
