import { describe, expect, it } from 'vitest';
import { MAX_KEPT_QUERY_CHARS, reduceLongQuery } from './long-query.js';
import { parseQuery } from './query-parser.js';

/** An issue as LocBench has them: a title, a few sentences, a traceback and a long pasted log. */
function longIssue(logLines: number): string {
  const log = Array.from({ length: logLines }, (_, i) => `[download] 2024-03-0${i % 9} 12:00:0${i % 10} fragment ${i} of the stream written to disk`).join('\n');
  const traceback = ['Traceback (most recent call last):', '  File "yt_dlp/downloader/fragment.py", line 412, in download_fragment', '    self._finish_frag(ctx)', 'KeyError: \'fragment_index\''].join('\n');
  return `Fragment downloader crashes on resume\n\nResuming a download with \`--continue\` fails in \`_finish_frag\`.\n\n\`\`\`\n${log}\n${traceback}\n\`\`\`\n`;
}

describe('reduceLongQuery', () => {
  it('returns a query within the limit unchanged (so ordinary queries rank as before)', () => {
    for (const text of ['tax', longIssue(100), 'x'.repeat(MAX_KEPT_QUERY_CHARS)]) {
      expect(text.length).toBeLessThanOrEqual(MAX_KEPT_QUERY_CHARS);
      expect(reduceLongQuery(text)).toEqual({ text, droppedChars: 0 });
    }
  });

  it('drops the middle of pasted logs first, keeping the title, the prose, the traceback and the weighted terms', () => {
    const issue = longIssue(700);
    expect(issue.length).toBeGreaterThan(38_000);
    const { text, droppedChars } = reduceLongQuery(issue);
    expect(text.length).toBeLessThanOrEqual(MAX_KEPT_QUERY_CHARS);
    expect(droppedChars).toBe(issue.length - text.length);
    expect(text.split('\n')[0]).toBe('Fragment downloader crashes on resume');
    expect(text).toContain('Resuming a download with `--continue` fails in `_finish_frag`.');
    expect(text).toContain('File "yt_dlp/downloader/fragment.py", line 412, in download_fragment');
    expect(text).toContain("KeyError: 'fragment_index'");
    // The log's head and tail stay (its shape), its middle goes.
    expect(text).toContain('fragment 0 of the stream');
    expect(text).toContain('fragment 699 of the stream');
    expect(text).not.toContain('fragment 350 of the stream');
    const parsed = parseQuery(text);
    expect(parsed.frames).toEqual([{ file: 'yt_dlp/downloader/fragment.py', line: 412, functionName: 'download_fragment' }]);
    expect(parsed.terms.slice(0, 6).map((t) => t.token)).toEqual(expect.arrayContaining(['finish', 'frag']));
  });

  it('cuts text with no structure to its head and tail within the limit', () => {
    const words = Array.from({ length: 9_000 }, (_, i) => `word${i}`).join(' ');
    const { text } = reduceLongQuery(`Title line\n${words}\nlast line names parse_config`);
    expect(text.length).toBeLessThanOrEqual(MAX_KEPT_QUERY_CHARS);
    expect(text.startsWith('Title line\n')).toBe(true);
    expect(text.endsWith('last line names parse_config')).toBe(true);
  });
});
