import { describe, expect, it } from 'vitest';
import type { ChunkHit, RetrievalResult } from '../retrieve/retrieval-types.js';
import { fileMap, hit, pythonFiles, pythonResult, result, sym, typescriptFiles, typescriptResult } from './__fixtures__/scaffold-fixtures.js';
import { buildScaffoldModel } from './build-scaffold-model.js';
import { renderScaffoldJson } from './render-json.js';
import { NEXT_STEP_CUE, NO_CANDIDATES_LINE, renderScaffold } from './render-scaffold.js';
import type { ScaffoldFile } from './scaffold-types.js';
import { estimateTokens } from '../budget/token-budget.js';

/** Five files a/f1.py … a/f5.py; file 1 has the given symbols, the others a few plain functions. */
function fiveFiles(topSymbols: ScaffoldFile['symbols'], tokens: string[]) {
  const paths = [1, 2, 3, 4, 5].map((i) => `a/f${i}.py`);
  const hits = paths.map((p, i) => hit(p, null, 1, 10, 10 - i));
  const res = result('q', tokens, hits, paths.map((p, i) => [p, 10 - i]));
  const files = fileMap(
    paths.map((path, i) => ({
      path,
      symbols: i === 0 ? topSymbols : [sym(`g${i}`, 'function', 1, 5), sym(`h${i}`, 'function', 6, 9), sym(`K${i}`, 'class', 10, 40)],
      importedBy: [],
    })),
  );
  return { res, files };
}

const manySymbols = [
  sym('One', 'class', 1, 100),
  sym('One.alpha', 'method', 2, 10),
  sym('One.beta', 'method', 11, 20),
  sym('Two', 'class', 101, 200),
  sym('gamma', 'function', 201, 230),
  sym('delta', 'function', 231, 240),
  sym('epsilon', 'function', 241, 245),
];

describe('buildScaffoldModel', () => {
  it('shows the top 5 files and expands only the top 3', () => {
    const model = buildScaffoldModel(pythonResult, pythonFiles);
    expect(model.totalFiles).toBe(6);
    expect(model.files.map((f) => [f.rank, f.expanded])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, false],
      [5, false],
    ]);
    for (const f of model.files.slice(3)) expect([f.anchors, f.glimpse, f.targets]).toEqual([[], [], []]);
    const text = renderScaffold(pythonResult, pythonFiles);
    expect(text.match(/\[FILE\]/g)).toHaveLength(5);
    expect(text.split(NEXT_STEP_CUE)).toHaveLength(4);
    expect(text).not.toContain('yt_dlp/utils/_utils.py');
  });

  it('counts evidence as the file’s hits among the raw hits', () => {
    const model = buildScaffoldModel(pythonResult, pythonFiles);
    for (const f of model.files) expect(f.evidence).toBe(pythonResult.hits.filter((h) => h.path === f.path).length);
  });

  it('gives the top file 5 glimpse symbols when it has no anchor, 3 otherwise', () => {
    const noAnchor = fiveFiles(manySymbols, ['unmatched']);
    const m1 = buildScaffoldModel(noAnchor.res, noAnchor.files);
    expect(m1.files[0].anchors).toEqual([]);
    expect(m1.files[0].glimpse).toHaveLength(5);
    expect(m1.files[1].glimpse).toHaveLength(3); // lower files without anchors keep 3

    const withAnchor = fiveFiles(manySymbols, ['alpha']);
    const m2 = buildScaffoldModel(withAnchor.res, withAnchor.files);
    expect(m2.files[0].anchors.map((a) => a.qualifiedName)).toEqual(['One.alpha']);
    expect(m2.files[0].glimpse).toHaveLength(3);
  });

  it('orders targets anchors → call neighbours → glimpse, unique, at most 4', () => {
    const symbols = [
      sym('load_config', 'function', 1, 10, { callees: ['read_file', 'parse_yaml', 'validate'] }),
      sym('save_config', 'function', 11, 20, { callees: ['write_file'] }),
      sym('read_file', 'function', 21, 30),
      sym('parse_yaml', 'function', 31, 40),
      sym('validate', 'function', 41, 50),
      sym('write_file', 'function', 51, 60),
      sym('main', 'function', 61, 70, { callees: ['load_config'] }),
      sym('Settings', 'class', 71, 200),
    ];
    const { res, files } = fiveFiles(symbols, ['config']);
    const top = buildScaffoldModel(res, files).files[0];
    expect(top.anchors.map((a) => a.qualifiedName)).toEqual(['load_config', 'save_config']);
    expect(top.targets.map((t) => [t.qualifiedName, t.source])).toEqual([
      ['load_config', 'anchor'],
      ['save_config', 'anchor'],
      ['read_file', 'neighbour'],
      ['parse_yaml', 'neighbour'],
    ]);
    const glimpseOnly = buildScaffoldModel(res, files, { maxTargets: 10 }).files[0].targets;
    expect(glimpseOnly.map((t) => t.source)).toEqual(['anchor', 'anchor', 'neighbour', 'neighbour', 'neighbour', 'neighbour', 'neighbour', 'glimpse']);
    expect(new Set(glimpseOnly.map((t) => t.qualifiedName)).size).toBe(glimpseOnly.length);
  });

  it('caps neighbour lists in the text with (+n more)', () => {
    const callees = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];
    const symbols = [sym('run_job', 'function', 1, 10, { callees }), ...callees.map((c, i) => sym(c, 'function', 20 + i * 10, 25 + i * 10))];
    const { res, files } = fiveFiles(symbols, ['job']);
    expect(renderScaffold(res, files)).toContain('invokes -> c1, c2, c3, c4, c5 (+2 more)');
  });

  it('renders a file without a ScaffoldFile as an expanded header with the cue only', () => {
    const { res, files } = fiveFiles(manySymbols, ['alpha']);
    files.delete('a/f1.py');
    const model = buildScaffoldModel(res, files);
    expect(model.files[0]).toMatchObject({ parsed: false, anchors: [], glimpse: [], targets: [] });
    expect(renderScaffold(res, files).split('\n').slice(0, 3)).toEqual([
      '[DIR] a',
      '  [FILE] a/f1.py (evidence: 1)',
      `    ${NEXT_STEP_CUE}`,
    ]);
  });

  it('says so when there are no candidate files', () => {
    const empty: RetrievalResult = { query: 'q', queryTokens: [], hits: [], files: [] };
    expect(renderScaffold(empty, new Map())).toBe(NO_CANDIDATES_LINE);
  });
});

describe('renderScaffold ablations', () => {
  const markers = {
    anchors: ['[ANCHORS]', 'invokes ->', 'invoked-by <-'],
    glimpse: ['[GLIMPSE]'],
    targets: ['[CANDIDATE_TARGETS]'],
    cue: ['>> Next:'],
  } as const;

  it.each(Object.keys(markers) as Array<keyof typeof markers>)('{ %s: false } removes only that block', (block) => {
    const full = renderScaffold(pythonResult, pythonFiles);
    const without = renderScaffold(pythonResult, pythonFiles, { [block]: false });
    for (const marker of markers[block]) {
      expect(full).toContain(marker);
      expect(without).not.toContain(marker);
    }
    for (const [other, list] of Object.entries(markers)) {
      if (other !== block) for (const marker of list) expect(without).toContain(marker);
    }
  });
});

describe('renderScaffold budget', () => {
  it.each([40, 60, 90, 120, 200, 300, 450, 600, 800])('stays within %i tokens and, when it cuts, says so once at the end', (budget) => {
    for (const [res, files] of [
      [pythonResult, pythonFiles],
      [typescriptResult, typescriptFiles],
    ] as const) {
      const text = renderScaffold(res, files, { budgetTokens: budget });
      expect(estimateTokens(text)).toBeLessThanOrEqual(budget);
      if (estimateTokens(renderScaffold(res, files, { budgetTokens: 1e9 })) <= budget) continue;
      const lines = text.split('\n');
      expect(lines.filter((l) => l.startsWith('[TRUNCATED]'))).toHaveLength(1);
      expect(lines[lines.length - 1]).toMatch(/^\[TRUNCATED\] .* left out to stay within \d+ tokens$/);
    }
  });

  it('adds no truncation line when everything fits', () => {
    expect(renderScaffold(pythonResult, pythonFiles)).not.toContain('[TRUNCATED]');
  });

  it('drops lower-ranked files before the top file’s anchors', () => {
    const text = renderScaffold(pythonResult, pythonFiles, { budgetTokens: 300 });
    expect(text).toContain('YoutubeIE._decrypt_signature');
    expect(text).not.toContain('test/test_youtube_signature.py (evidence');
    expect(text).toMatch(/\[TRUNCATED\] \d+ files?/);
  });

  it('never prints a section marker without an item, nor an item without its file header', () => {
    for (let budget = 30; budget <= 700; budget += 10) {
      const lines = renderScaffold(pythonResult, pythonFiles, { budgetTokens: budget }).split('\n');
      lines.forEach((line, i) => {
        if (/^ {4}\[(ANCHORS|GLIMPSE|CANDIDATE_TARGETS)\]$/.test(line)) expect(lines[i + 1]).toMatch(/^ {6}- /);
        if (/^ {2}\[FILE\]/.test(line)) expect(lines.slice(0, i).some((l) => l.startsWith('[DIR] '))).toBe(true);
      });
    }
  });
});

describe('determinism', () => {
  it('renders the same input twice identically', () => {
    expect(renderScaffold(pythonResult, pythonFiles)).toBe(renderScaffold(pythonResult, pythonFiles));
    expect(JSON.stringify(renderScaffoldJson(typescriptResult, typescriptFiles))).toBe(
      JSON.stringify(renderScaffoldJson(typescriptResult, typescriptFiles)),
    );
  });

  it('does not depend on the order of hits, files, symbols or importers', () => {
    const reversed: RetrievalResult = {
      ...pythonResult,
      hits: [...pythonResult.hits].reverse(),
      files: [...pythonResult.files].reverse().map((f) => ({ ...f, hits: [...f.hits].reverse() })),
    };
    const shuffledFiles = new Map(
      [...pythonFiles].map(([path, f]) => [path, { ...f, symbols: [...f.symbols].reverse(), importedBy: [...f.importedBy].reverse() }]),
    );
    expect(renderScaffold(reversed, shuffledFiles)).toBe(renderScaffold(pythonResult, pythonFiles));
  });

  it('breaks score ties stably: files by path, hit-preferred anchors by span then line', () => {
    const tied = (order: ChunkHit[]) => result('q', ['sync'], order, [
      ['b/two.py', 5],
      ['a/one.py', 5],
    ]);
    const hits = [hit('a/one.py', 'sync_a', 1, 5, 3), hit('a/one.py', 'sync_b', 10, 14, 3), hit('b/two.py', null, 1, 9, 3)];
    const files = fileMap([
      { path: 'a/one.py', symbols: [sym('sync_a', 'function', 1, 5), sym('sync_b', 'function', 10, 14)], importedBy: [] },
      { path: 'b/two.py', symbols: [], importedBy: [] },
    ]);
    const first = renderScaffold(tied(hits), files);
    expect(renderScaffold(tied([...hits].reverse()), files)).toBe(first);
    expect(first.indexOf('a/one.py')).toBeLessThan(first.indexOf('b/two.py'));
    expect(first.indexOf('- sync_a')).toBeLessThan(first.indexOf('- sync_b'));
  });
});
