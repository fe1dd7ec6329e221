import { describe, expect, it } from 'vitest';
import { pythonSkeletonInput, sym, typescriptSkeletonInput } from './__fixtures__/scaffold-fixtures.js';
import { buildSkeletonJson, cleanSignature, importEntries, renderSkeleton, type SkeletonInput } from './render-skeleton.js';
import { estimateTokens } from '../budget/token-budget.js';

describe('renderSkeleton', () => {
  it('nests by parent, in file order, with spans and first doc lines', () => {
    expect(renderSkeleton(pythonSkeletonInput).split('\n')).toEqual([
      '[FILE] pkg/models.py (python, 120 lines)',
      'imports: os, typing.List, typing.Optional, .base.Base',
      'class Model(Base) [L10-80]  — A trainable model.',
      '  def __init__(self, x) [L12-20]  — Create a model.',
      '  def run(self) -> List[int] [L22-80]',
      '    def step(i) [L30-40]',
      'def helper(a, b) [L85-90]',
    ]);
  });

  it('never prints bodies or callees, only signatures', () => {
    const file: SkeletonInput = {
      ...pythonSkeletonInput,
      symbols: [sym('f', 'function', 1, 3, { signature: 'def f():', callees: ['SECRET_BODY_CALL'] })],
    };
    const text = renderSkeleton(file);
    expect(text).not.toContain('SECRET_BODY_CALL');
    expect(text).toContain('def f() [L1-3]');
  });

  it('falls back to kind and name when the signature is empty', () => {
    const file: SkeletonInput = { ...pythonSkeletonInput, imports: [], symbols: [sym('Thing', 'struct', 4, 4)] };
    expect(renderSkeleton(file).split('\n')[1]).toBe('struct Thing [L4]');
  });

  it('notes partial, unsupported and failed parses', () => {
    expect(renderSkeleton(typescriptSkeletonInput)).toContain('[PARTIAL] parse recovered from 2 syntax errors');
    expect(renderSkeleton({ ...pythonSkeletonInput, status: 'unsupported', language: 'cobol', symbols: [] })).toContain(
      '[UNSUPPORTED] no parser for cobol',
    );
    expect(renderSkeleton({ ...pythonSkeletonInput, status: 'failed', symbols: [] })).toContain('[FAILED]');
    expect(renderSkeleton(pythonSkeletonInput)).not.toMatch(/\[(PARTIAL|FAILED|UNSUPPORTED)\]/);
  });

  it('omits the line count when unknown', () => {
    const { lineCount: _ignored, ...rest } = pythonSkeletonInput;
    expect(renderSkeleton(rest).split('\n')[0]).toBe('[FILE] pkg/models.py (python)');
  });

  it('drops doc suffixes before dropping symbols', () => {
    const full = renderSkeleton(typescriptSkeletonInput);
    const budget = estimateTokens(full) - 5;
    const text = renderSkeleton(typescriptSkeletonInput, { budgetTokens: budget });
    expect(estimateTokens(text)).toBeLessThanOrEqual(budget);
    expect(text).not.toContain(' — ');
    expect(text).toContain('isRetryableStatus');
    expect(text.split('\n').at(-1)).toBe(`[TRUNCATED] 2 doc lines left out to stay within ${budget} tokens`);
  });

  it('cuts trailing symbols within budget for many budgets', () => {
    const symbols = Array.from({ length: 200 }, (_, i) => sym(`fn_${i}`, 'function', i * 10 + 1, i * 10 + 9, { signature: `def fn_${i}(a, b, c):` }));
    const file: SkeletonInput = { ...pythonSkeletonInput, symbols };
    for (const budget of [30, 100, 500, 1500]) {
      const text = renderSkeleton(file, { budgetTokens: budget });
      expect(estimateTokens(text)).toBeLessThanOrEqual(budget);
      expect(text.split('\n').at(-1)).toMatch(/^\[TRUNCATED\] \d+ symbols left out/);
    }
  });
});

describe('importEntries', () => {
  it('formats dotted, relative, path-like and Rust imports', () => {
    expect(
      importEntries([
        { source: 'std::io', names: ['Read'], line: 4 },
        { source: '.', names: ['sibling'], line: 3 },
        { source: './util', names: ['a', 'b'], line: 2 },
        { source: 'os', names: [], line: 1 },
        { source: 'os', names: [], line: 5 },
      ]),
    ).toEqual(['os', './util {a, b}', '.sibling', 'std::io::Read']);
  });

  it('caps the imports line', () => {
    const imports = Array.from({ length: 30 }, (_, i) => ({ source: `m${i}`, names: [], line: i + 1 }));
    expect(renderSkeleton({ ...pythonSkeletonInput, imports }, { maxImports: 3 }).split('\n')[1]).toBe('imports: m0, m1, m2 (+27 more)');
  });
});

describe('cleanSignature', () => {
  it('drops the body opener and collapses whitespace', () => {
    expect(cleanSignature('def  f(a,\n   b):')).toBe('def f(a, b)');
    expect(cleanSignature('export class A extends B {')).toBe('export class A extends B');
    expect(cleanSignature('fn main() -> Result<()> {')).toBe('fn main() -> Result<()>');
  });
});

describe('buildSkeletonJson', () => {
  it('keeps document order and depths', () => {
    const json = buildSkeletonJson(typescriptSkeletonInput);
    expect(json.symbols.map((s) => [s.qualifiedName, s.depth])).toEqual([
      ['RequestOptions', 0],
      ['HttpClient', 0],
      ['HttpClient.request', 1],
      ['HttpClient.sendWithRetry', 1],
      ['isRetryableStatus', 0],
    ]);
    expect(json.imports.map((i) => i.line)).toEqual([1, 2, 3]);
    expect(json.symbolsLeftOut).toBe(0);
  });

  it('drops trailing symbols to fit the budget and counts them', () => {
    const json = buildSkeletonJson(typescriptSkeletonInput, { budgetTokens: 200 });
    expect(estimateTokens(JSON.stringify(json))).toBeLessThanOrEqual(200);
    expect(json.symbolsLeftOut).toBeGreaterThan(0);
    expect(json.symbols.length + json.symbolsLeftOut).toBe(5);
  });
});
