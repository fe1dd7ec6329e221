/**
 * The queries a learned model was trained on, as a closed test on a query's
 * text: the default ranker (`auto`) applies the model only to queries of its
 * training data's kind and keeps the hand order for the rest, so a model is
 * never trusted where it has not been measured. The same test classes the
 * training and evaluation instances (`bench/train-trees.mjs`), so the figures
 * that decided the default describe the queries it is applied to.
 */
import { parseQuery } from '../query-parser.js';

/** The queries a model applies to: at most `maxWords` words, and with a stack trace only when `traces`. */
export interface QueryDomain {
  maxWords: number;
  traces: boolean;
}

/** The query's words: runs of non-space characters (code, paths and punctuation count as words). */
export function queryWords(text: string): number {
  let words = 0;
  for (const _ of text.matchAll(/\S+/g)) words++;
  return words;
}

/**
 * Whether a query of `text`, whose parse found `frameCount` stack frames, is in
 * `domain`. A query with any frame counts as traced.
 */
export function inQueryDomain(text: string, frameCount: number, domain: QueryDomain): boolean {
  return queryWords(text) <= domain.maxWords && (domain.traces || frameCount === 0);
}

/** {@link inQueryDomain} for a text not yet parsed (the evaluation scripts' path; the search passes its own parse). */
export function textInQueryDomain(text: string, domain: QueryDomain): boolean {
  return inQueryDomain(text, parseQuery(text).frames.length, domain);
}
