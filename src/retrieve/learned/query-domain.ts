/**
 * The queries a learned model was trained on, as a closed test on a query's
 * text: the default ranker (`auto`) applies the model only to queries of its
 * training data's kind and keeps the hand order for the rest, so a model is
 * never trusted where it has not been measured. The same test classes the
 * training and evaluation instances (`bench/train-trees.mjs`), so the figures
 * that decided the default describe the queries it is applied to.
 */
import { parseQuery, type ParsedQuery } from '../query-parser.js';

/** The queries a model applies to: at most `maxWords` words, and with a stack trace only when `traces`. */
export interface QueryDomain {
  maxWords: number;
  traces: boolean;
}

/**
 * Whether a parsed query is in `domain`, read off its parse (its word count and
 * stack frames). A query with any frame counts as traced.
 */
export function inQueryDomain(query: Pick<ParsedQuery, 'words' | 'frames'>, domain: QueryDomain): boolean {
  return query.words <= domain.maxWords && (domain.traces || query.frames.length === 0);
}

/** {@link inQueryDomain} for a text not yet parsed (the evaluation scripts' path; the search passes its own parse). */
export function textInQueryDomain(text: string, domain: QueryDomain): boolean {
  return inQueryDomain(parseQuery(text), domain);
}
