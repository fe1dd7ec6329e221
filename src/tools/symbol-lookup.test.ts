import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';
import { lookupSymbols, parseSymbolQuery, similarSymbols } from './symbol-lookup.js';

describe('parseSymbolQuery', () => {
  it('normalizes the ways models write names', () => {
    expect(parseSymbolQuery('Cart.checkout')).toEqual({ name: 'Cart.checkout', pathHint: null });
    expect(parseSymbolQuery(' `Cart::checkout()` ')).toEqual({ name: 'Cart.checkout', pathHint: null });
    expect(parseSymbolQuery('Cart#checkout')).toEqual({ name: 'Cart.checkout', pathHint: null });
    expect(parseSymbolQuery('web/src/cart.ts:Cart.checkout')).toEqual({ name: 'Cart.checkout', pathHint: 'web/src/cart.ts' });
  });

  it('refuses empty and oversized names', () => {
    expect(() => parseSymbolQuery('()')).toThrow(/not a symbol name/);
    expect(() => parseSymbolQuery('x'.repeat(301))).toThrow(/limited to 300/);
  });
});

describe('lookupSymbols', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
  });
  afterAll(async () => h.close());
  const store = () => h.repositories.select().index.store;

  it('tries the exact qualified name first', () => {
    const r = lookupSymbols(store(), 'Cart.checkout', { category: 'function' });
    expect(r.tier).toBe('exact');
    expect(r.matches.map((m) => `${m.path}:${m.qualifiedName}`)).toEqual(['web/src/cart.ts:Cart.checkout']);
  });

  it('then a qualified-name suffix, across languages, by path', () => {
    const r = lookupSymbols(store(), 'checkout', { category: 'function' });
    expect(r.tier).toBe('suffix');
    expect(r.matches.map((m) => m.qualifiedName)).toEqual(['OrderService.checkout', 'Cart.checkout']);
  });

  it('then case-insensitively, then module-qualified', () => {
    expect(lookupSymbols(store(), 'cart.CHECKOUT', { category: 'function' }).tier).toBe('case-insensitive');
    const r = lookupSymbols(store(), 'shop.pricing.PriceCalculator', { category: 'class' });
    expect(r.tier).toBe('module-path');
    expect(r.matches[0].path).toBe('shop/pricing.py');
  });

  it('respects the category, a path filter and a path hint', () => {
    expect(lookupSymbols(store(), 'Cart', { category: 'function' }).matches).toEqual([]);
    expect(lookupSymbols(store(), 'Order', { category: 'class' }).matches).toHaveLength(2);
    expect(lookupSymbols(store(), 'Order', { category: 'class', pathFilter: (p) => p.endsWith('.go') }).matches.map((m) => m.kind)).toEqual(['struct']);
    expect(lookupSymbols(store(), 'store.go:Order', { category: 'class' }).matches.map((m) => m.path)).toEqual(['internal/store/store.go']);
  });

  it('never matches fuzzily, but suggests similar names', () => {
    expect(lookupSymbols(store(), 'checkou', { category: 'function' }).matches).toEqual([]);
    expect(similarSymbols(store(), 'checkou', 'function').map((s) => s.qualifiedName)).toEqual(['Cart.checkout', 'OrderService.checkout']);
  });
});
