import { describe, expect, it } from 'vitest';
import { fakeReadLines, hit, pythonFiles, pythonResult, result, typescriptFiles, typescriptResult } from './__fixtures__/scaffold-fixtures.js';
import { renderFileOnly } from './render-file-only.js';
import { renderInline } from './render-inline.js';
import { INTERFACE_MODES, renderInterface } from './render-interface.js';
import { renderScaffoldJson } from './render-json.js';
import { renderSnippets } from './render-snippet.js';
import { estimateTokens } from '../budget/token-budget.js';

describe('renderSnippets', () => {
  it('shows the top-k hits with numbered code', () => {
    const text = renderSnippets(pythonResult, { readLines: fakeReadLines, topK: 2, maxLinesPerHit: 2 });
    expect(text.split('\n')).toEqual([
      'yt_dlp/extractor/youtube.py:2801-2850 YoutubeIE._extract_signature_function (9.000)',
      '  2801 | # youtube.py line 2801',
      '  2802 | # youtube.py line 2802',
      '  … 48 more lines',
      'yt_dlp/extractor/youtube.py:2910-2940 YoutubeIE._decrypt_signature (8.200)',
      '  2910 | # youtube.py line 2910',
      '  2911 | # youtube.py line 2911',
      '  … 29 more lines',
    ]);
  });

  it('defaults to 10 hits', () => {
    const text = renderSnippets(pythonResult, { readLines: () => ['x'] });
    expect(text.split('\n').filter((l) => !l.startsWith(' '))).toHaveLength(10);
  });

  it('cuts whole hits at the budget and says how many', () => {
    const text = renderSnippets(pythonResult, { readLines: fakeReadLines, budgetTokens: 200 });
    expect(estimateTokens(text)).toBeLessThanOrEqual(200);
    expect(text.split('\n').at(-1)).toMatch(/^\[TRUNCATED\] \d+ hits left out to stay within 200 tokens$/);
  });

  it('survives unreadable sources', () => {
    const text = renderSnippets(pythonResult, {
      topK: 1,
      readLines: () => {
        throw new Error('gone');
      },
    });
    expect(text).toContain('(source unavailable: gone)');
  });

  it('orders tied hits by path and line, whatever their input order', () => {
    const hits = [hit('b.py', 'f', 1, 2, 1), hit('a.py', 'g', 5, 6, 1), hit('a.py', 'h', 1, 2, 1)];
    const render = (h: typeof hits) => renderSnippets(result('q', [], h, []), { readLines: () => [] });
    const text = render(hits);
    expect(render([...hits].reverse())).toBe(text);
    expect(text.split('\n').filter((l) => !l.startsWith(' '))).toEqual(['a.py:1-2 h (1.000)', 'a.py:5-6 g (1.000)', 'b.py:1-2 f (1.000)']);
  });
});

describe('renderFileOnly and renderInline', () => {
  it('list the same top files as the scaffold', () => {
    const scaffoldPaths = renderScaffoldJson(pythonResult, pythonFiles).files.map((f) => f.path);
    const listed = (text: string) => [...text.matchAll(/^\d+\. (\S+)/gm)].map((m) => m[1]);
    expect(listed(renderFileOnly(pythonResult))).toEqual(scaffoldPaths);
    expect(listed(renderInline(pythonResult))).toEqual(scaffoldPaths);
  });

  it('file-only shows no symbols', () => {
    const text = renderFileOnly(typescriptResult);
    expect(text).not.toContain('HttpClient');
    expect(text).toContain('1. src/http/client.ts (score: 7.800, evidence: 4)');
  });

  it('inline caps hits per file', () => {
    expect(renderInline(pythonResult, { maxHitsPerFile: 2 })).toContain('   - (+6 more hits)');
  });

  it('truncate to budget as a ranked prefix', () => {
    for (const render of [renderFileOnly, renderInline]) {
      const text = render(pythonResult, { budgetTokens: 90 });
      expect(estimateTokens(text)).toBeLessThanOrEqual(90);
      expect(text.split('\n').at(-1)).toMatch(/^\[TRUNCATED\] \d+ (files?|hit lines?)/);
      expect(text).toContain('1. yt_dlp/extractor/youtube.py');
    }
  });
});

describe('renderScaffoldJson', () => {
  it('carries ranked files and, for expanded files only, the blocks with spans', () => {
    const json = renderScaffoldJson(typescriptResult, typescriptFiles);
    expect(json.files.map((f) => [f.path, f.score, f.evidence])).toEqual([
      ['src/http/client.ts', 7.8, 4],
      ['src/http/retry-policy.ts', 6.9, 2],
      ['src/http/errors.ts', 4, 1],
      ['test/http/client.test.ts', 2.8, 1],
      ['src/index.ts', 1.5, 1],
    ]);
    expect(json.files[0].anchors?.[0]).toMatchObject({ qualifiedName: 'HttpClient.computeExponentialBackoff', startLine: 80, endLine: 90 });
    expect(json.files[3]).not.toHaveProperty('anchors');
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('has a stable key order', () => {
    const json = renderScaffoldJson(pythonResult, pythonFiles);
    expect(Object.keys(json)).toEqual(['query', 'queryTokens', 'totalFiles', 'files']);
    expect(Object.keys(json.files[0])).toEqual(['rank', 'path', 'score', 'evidence', 'expanded', 'parsed', 'importedBy', 'anchors', 'glimpse', 'targets']);
    expect(Object.keys(json.files[0].targets![0])).toEqual(['qualifiedName', 'kind', 'startLine', 'endLine', 'hitScore', 'source']);
  });
});

describe('renderInterface', () => {
  it('renders every mode from the same inputs', () => {
    for (const mode of INTERFACE_MODES) {
      const text = renderInterface(mode, pythonResult, pythonFiles, { readLines: fakeReadLines });
      expect(text.length).toBeGreaterThan(0);
    }
    expect(renderInterface('scaffold', pythonResult, pythonFiles, { anchors: false })).not.toContain('[ANCHORS]');
    expect(JSON.parse(renderInterface('json', pythonResult, pythonFiles))).toEqual(renderScaffoldJson(pythonResult, pythonFiles));
  });

  it('requires readLines for snippets', () => {
    expect(() => renderInterface('snippet', pythonResult, pythonFiles)).toThrow(/readLines/);
  });
});
