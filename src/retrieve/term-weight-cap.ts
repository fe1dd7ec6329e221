/**
 * Largest weight one query term carries in the file-level and documentation
 * BM25 (a term an issue repeats ten times is not ten times the evidence); the
 * chunk BM25 caps its repeats at 4 by default too (`maxRepeat`).
 */
export const MAX_TERM_WEIGHT = 4;
