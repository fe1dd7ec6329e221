import * as z from '../zod-mini.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';
import { listSymbolsOutputSchema, searchOutputSchema } from './output-schemas.js';

describe('tool output schemas', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
  });
  afterAll(async () => h.close());

  it('admit exactly what search and list_symbols return (strictly: no unknown keys)', async () => {
    const search = await h.call('search', { query: 'order total tax' });
    expect(z.strictObject(searchOutputSchema().shape).parse(search.data)).toEqual(search.data);
    const skeleton = await h.call('list_symbols', { file: 'shop/models.py' });
    expect(z.strictObject(listSymbolsOutputSchema().shape).parse(skeleton.data)).toEqual(skeleton.data);
  });

  it('admit the still-indexing answer and reject a wrong type', () => {
    const indexing = { indexing: true, repository: 'r', done: 3, total: 10 };
    expect(searchOutputSchema().parse(indexing)).toEqual(indexing);
    expect(listSymbolsOutputSchema().parse(indexing)).toEqual(indexing);
    expect(listSymbolsOutputSchema().safeParse({ path: 3 }).success).toBe(false);
  });
});
