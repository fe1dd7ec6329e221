import { describe, expect, it } from 'vitest';
import * as z from '../zod-mini.js';
import { closestName, prepareArgs } from './strict-args.js';

const schema = z.strictObject({ query: z.string(), file_pattern: z.optional(z.string()), top_k: z.optional(z.number()), repo: z.optional(z.string()) });

describe('prepareArgs', () => {
  it('refuses an unknown argument, naming it and the closest valid one', () => {
    expect(prepareArgs('search', schema, { query: 'x', filePattern: '*.ts' })).toEqual({
      ok: false,
      message: "Unknown argument 'filePattern' (did you mean 'file_pattern'?) for search; search takes query, file_pattern, top_k, repo.",
    });
    const far = prepareArgs('search', schema, { query: 'x', colour: 'red', topk: 3 });
    expect(far).toEqual({ ok: false, message: "Unknown arguments 'colour', 'topk' (did you mean 'top_k'?) for search; search takes query, file_pattern, top_k, repo." });
  });

  it('suggests the one missing required argument when no name is near', () => {
    expect(prepareArgs('search', schema, { path: 'x' })).toEqual({
      ok: false,
      message: "Unknown argument 'path' (did you mean 'query'?) for search; search takes query, file_pattern, top_k, repo.",
    });
  });

  it('takes numeric strings for number arguments only', () => {
    expect(prepareArgs('search', schema, { query: '42', top_k: ' 5 ' })).toEqual({ ok: true, args: { query: '42', top_k: 5 } });
    expect(prepareArgs('search', schema, { query: 'x', top_k: 'five' })).toEqual({ ok: true, args: { query: 'x', top_k: 'five' } });
  });

  it('passes through what is not a plain object, for zod to judge', () => {
    expect(prepareArgs('search', schema, 'query')).toEqual({ ok: true, args: 'query' });
    expect(prepareArgs('search', z.string(), { a: 1 })).toEqual({ ok: true, args: { a: 1 } });
  });

  it('suggests only near misses', () => {
    expect(closestName('FILE-PATTERN', ['file_pattern', 'repo'])).toBe('file_pattern');
    expect(closestName('repoo', ['file_pattern', 'repo'])).toBe('repo');
    expect(closestName('xyz', ['file_pattern', 'repo'])).toBeNull();
  });
});
