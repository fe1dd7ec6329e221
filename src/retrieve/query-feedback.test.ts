import { describe, expect, it } from 'vitest';
import { feedbackTerms } from './query-feedback.js';
import { parseQuery } from './query-parser.js';
import type { ChunkHit } from './retrieval-types.js';

const hit = (path: string, symbol: string | null): ChunkHit => ({ chunkId: 0, path, kind: 'function', symbol, startLine: 1, endLine: 2, score: 1 });

describe('feedbackTerms', () => {
  it('adds names shared by enough first hits that the query lacks, most shared first', () => {
    const hits = [
      hit('pkg/cookies.py', 'CookieJar.load_jar'),
      hit('pkg/cookies.py', 'CookieJar.save'),
      hit('pkg/browser.py', 'extract_jar'),
      hit('pkg/network.py', 'fetch'),
      hit('pkg/other.py', 'jar_path'),
    ];
    const query = parseQuery('cookies are not saved');
    const terms = feedbackTerms(hits, query, { documents: 4, terms: 5, weight: 1, minDocuments: 2 });
    // jar: 3 of the first 4 (the fifth is past `documents`); cookie and the whole name cookiejar: 2; cookies is in the query already.
    expect(terms).toEqual([{ token: 'jar', weight: 1 }, { token: 'cookie', weight: 1 }, { token: 'cookiejar', weight: 1 }]);
    expect(feedbackTerms(hits, query, { documents: 4, terms: 1, weight: 2, minDocuments: 3 })).toEqual([{ token: 'jar', weight: 2 }]);
  });
});
