import { describe, expect, it } from 'vitest';
import { DEFAULT_QUERY_WEIGHTS, inflectionVariants, isLogLine, issueTitle, parseQuery, stripBoilerplate } from './query-parser.js';

const weightOf = (text: string, token: string) => parseQuery(text).terms.find((t) => t.token === token)?.weight;

describe('parseQuery', () => {
  it('extracts Python, JavaScript and Java stack frames', () => {
    const q = parseQuery(
      [
        'Traceback (most recent call last):',
        '  File "/home/u/venv/lib/python3.11/site-packages/pkg/loader.py", line 42, in load_config',
        '    at Object.parseArgs (src/cli/args.ts:10:5)',
        '\tat com.acme.Store.save(Store.java:77)',
      ].join('\n'),
    );
    expect(q.frames).toEqual([
      { file: '/home/u/venv/lib/python3.11/site-packages/pkg/loader.py', line: 42, functionName: 'load_config' },
      { file: 'Store.java', line: 77, functionName: 'save' },
      { file: 'src/cli/args.ts', line: 10, functionName: 'parseArgs' },
    ]);
    expect(q.paths).toContain('src/cli/args.ts');
    expect(weightOf('x\n  File "a/b.py", line 1, in load_config', 'load_config')).toBeGreaterThanOrEqual(DEFAULT_QUERY_WEIGHTS.frameFunction);
  });

  it('weights backticked names and identifiers above plain words, and splits them', () => {
    const text = 'Crash in `FormatSorter` when the retry_count is zero\nthe sorter crashes';
    expect(weightOf(text, 'formatsorter')).toBeGreaterThan(weightOf(text, 'zero')!);
    expect(weightOf(text, 'retry_count')).toBeGreaterThan(weightOf(text, 'zero')!);
    const q = parseQuery(text);
    expect(q.identifiers).toEqual(expect.arrayContaining(['FormatSorter', 'retry_count']));
    expect(q.anchorTokens).toEqual(expect.arrayContaining(['format', 'sorter', 'retry', 'count']));
  });

  it('treats file paths, CLI flags, dotted names and calls as code', () => {
    const q = parseQuery('Running with --write-comments breaks yt_dlp/extractor/patreon.py: os.path.join() fails in get_comments(');
    expect(q.paths).toContain('yt_dlp/extractor/patreon.py');
    expect(q.identifiers).toEqual(expect.arrayContaining(['write_comments', 'os.path.join', 'get_comments']));
    expect(q.terms.some((t) => t.token === 'patreon')).toBe(true);
  });

  it('drops stopwords, numbers and issue-template boilerplate, keeps the URL host', () => {
    const text = [
      '[Bilibili] extraction fails',
      '<!-- please fill in the template -->',
      '- [X] I understand that I will be blocked',
      'See https://www.bilibili.com/video/BV1 for 1080 formats',
    ].join('\n');
    const tokens = parseQuery(text).terms.map((t) => t.token);
    expect(tokens).not.toContain('the');
    expect(tokens).not.toContain('understand');
    expect(tokens).not.toContain('template');
    expect(tokens).not.toContain('1080');
    expect(tokens).toContain('bilibili');
    // A bracketed tag in the title names a component: weighted like an identifier, times the title factor.
    expect(weightOf(text, 'bilibili')).toBeGreaterThanOrEqual(DEFAULT_QUERY_WEIGHTS.titleTag * DEFAULT_QUERY_WEIGHTS.title);
    expect(stripBoilerplate('a <!-- x --> b\n- [ ] c\nd')).toBe('a   b\n \nd');
  });

  it('counts title words double and orders terms by weight, then token', () => {
    const q = parseQuery('cache eviction\nthe loader reads the cache');
    expect(weightOf('cache eviction\nthe loader reads the cache', 'eviction')).toBe(2);
    expect(weightOf('cache eviction\nthe loader reads the cache', 'loader')).toBe(1);
    const weights = q.terms.map((t) => t.weight);
    expect([...weights].sort((a, b) => b - a)).toEqual(weights);
  });

  it('works for a short natural-language request', () => {
    const q = parseQuery('where is the retry logic');
    expect(q.terms.map((t) => t.token).sort()).toEqual(['logic', 'retry']);
    expect(q.frames).toEqual([]);
  });

  it('adds inflection variants only when asked', () => {
    expect(parseQuery('reserving codes').terms.map((t) => t.token).sort()).toEqual(['codes', 'reserving']);
    const withVariants = parseQuery('reserving codes', { ...DEFAULT_QUERY_WEIGHTS, variant: 0.5 });
    expect(withVariants.terms.find((t) => t.token === 'code')?.weight).toBe(0.5 * withVariants.terms.find((t) => t.token === 'codes')!.weight);
    expect(inflectionVariants('reserving')).toContain('reserve');
    expect(inflectionVariants('queries')).toEqual(['query']);
    expect(inflectionVariants('status')).toEqual([]);
  });
});

describe('log-line damping', () => {
  const issue = [
    'Dropbox extractor fails on shared folders',
    'Downloading a shared folder link fails with an error.',
    '[debug] Command-line config: --verbose --format bestvideo',
    '[debug] Python 3.12.1, ffmpeg 6.0, websockets 12.0',
    '2024-01-01 12:00:01 INFO requests session opened',
  ].join('\n');
  const weight = (token: string, logLine: number) => parseQuery(issue, { ...DEFAULT_QUERY_WEIGHTS, logLine }).terms.find((t) => t.token === token)?.weight;

  it('recognises pasted program output', () => {
    expect(isLogLine('[debug] Python 3.12.1')).toBe(true);
    expect(isLogLine('  2024-01-01 12:00:01 INFO x')).toBe(true);
    expect(isLogLine('WARNING: the file is old')).toBe(true);
    expect(isLogLine('Downloading [the folder] fails')).toBe(false);
    expect(isLogLine('ERROR: Unable to extract')).toBe(false);
  });

  it('damps words only log lines carry, leaves words the prose also uses, and is off by default', () => {
    expect(weight('websockets', 1)).toBe(weight('websockets', DEFAULT_QUERY_WEIGHTS.logLine));
    expect(weight('websockets', 0.4)).toBeCloseTo(weight('websockets', 1)! * 0.4, 10);
    expect(weight('ffmpeg', 0.4)).toBeLessThan(weight('ffmpeg', 1)!);
    expect(weight('folder', 0.4)).toBe(weight('folder', 1));
    expect(weight('dropbox', 0.4)).toBe(weight('dropbox', 1));
  });
});

describe('parseQuery with a context', () => {
  it('gives the tokens of names the repository does not know the unknown-name weight, unless a known name raises them', () => {
    const text = 'Match fails for `PrintableKey`\nclass PrintableKey(bytes) is matched by `visit_class_pattern` with a key';
    const context = { isKnownName: (name: string) => name !== 'PrintableKey', unknownNameWeight: 0.5 };
    const weight = (token: string) => parseQuery(text, undefined, context).terms.find((t) => t.token === token)?.weight;
    // Title ×2, twice in the text ×1.5: 0.5 × 2 × 1.5.
    expect(weight('printablekey')).toBe(1.5);
    expect(weight('printable')).toBe(1.5);
    expect(weight('visit_class_pattern')).toBe(3);
    // Without a context the name weighs as a backticked identifier.
    expect(parseQuery(text).terms.find((t) => t.token === 'printablekey')?.weight).toBe(9);
  });

  it('checks each part of a dotted name and damps written paths the context does not know', () => {
    const context = { isKnownName: (name: string) => name === 'compute', isKnownPath: (path: string) => path === 'pkg/core.py' };
    const q = parseQuery('x\nusers call myobj.compute() in colors.py, see pkg/core.py', undefined, context);
    const weight = (token: string) => q.terms.find((t) => t.token === token)?.weight;
    expect(weight('compute')).toBe(2);
    expect(weight('myobj')).toBe(1);
    expect(weight('colors')).toBe(1);
    expect(weight('core')).toBe(2);
  });
});

describe('issueTitle', () => {
  it('is the first line of a multi-line query after boilerplate, else empty', () => {
    expect(issueTitle('<!-- template -->\nWrong column number\nbody text')).toBe('Wrong column number');
    expect(issueTitle('one line query')).toBe('');
  });
});
