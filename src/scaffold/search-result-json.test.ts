import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from '../zod-mini.js';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';
import { searchRepository } from '../retrieve/search-repository.js';
import type { ScaffoldJson } from './render-json.js';
import { renderSearchResult } from './render-search-result.js';
import { scaffoldJsonSchema, searchResultJsonSchema, type SearchResultJson } from './search-result-json.js';

describe('the one search result JSON shape', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
  });
  afterAll(async () => h.close());

  it('the schema and the scaffold JSON type describe the same object', () => {
    // Checked by tsc (the type-check covers test files): a field added to one and not the other fails the build.
    expectTypeOf<z.infer<ReturnType<typeof scaffoldJsonSchema>>>().toEqualTypeOf<ScaffoldJson>();
  });

  it('the search tool answers exactly the schema (no key outside it) with spans and LocBench ids', async () => {
    const r = await h.call('search', { query: 'apply tax to the order total' });
    expect(r.isError).toBe(false);
    const data = r.data as SearchResultJson;
    // zod objects drop unknown keys, so equality after parsing means nothing outside the schema.
    expect(searchResultJsonSchema().parse(data)).toEqual(data);
    expect(Object.keys(data)).toEqual(['query', 'files', 'modules', 'functions', 'docs', 'docPlacement', 'scaffold']);
    expect(data.files[0].path).toBe('shop/pricing.py');
    const tax = data.functions.find((f) => f.qualifiedName === 'PriceCalculator.apply_tax');
    expect(tax).toEqual({ id: 'shop/pricing.py:PriceCalculator.apply_tax', path: 'shop/pricing.py', qualifiedName: 'PriceCalculator.apply_tax', score: tax!.score, startLine: 22, endLine: 23 });
  });

  it('the library renderer prints the same object the tool answers', async () => {
    const query = 'checkout order receipt';
    const tool = await h.call('search', { query });
    const store = h.repositories.select().index.store;
    const printed = renderSearchResult(store, await searchRepository(store, query), 'json');
    expect(JSON.parse(printed)).toEqual(tool.data);
  });
});
