import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';

describe('find_references', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
    // A caller that does not import pricing.py (name only), and a name that differs only where LIKE's `_` wildcard would match.
    writeFileSync(join(h.copy.root, 'shop', 'audit.py'), 'def audit(calc, order):\n    calc.compute(order)\n    return roundXmoney(1)\n');
  });
  afterAll(async () => h.close());

  it('lists call lines with their caller, most certain links first, and the importing lines', async () => {
    const r = await h.call('find_references', { name: 'PriceCalculator.compute' });
    expect(r.isError).toBe(false);
    expect(r.text.split('\n')).toEqual([
      "'PriceCalculator.compute' is defined at shop/pricing.py:18-20 PriceCalculator.compute (method).",
      '2 call sites (1 import, 1 name only):',
      'shop/service.py:26 in OrderService.checkout [import]',
      '    amount = self.calculator.compute(order)',
      'shop/audit.py:2 in audit [name only]',
      '    calc.compute(order)',
      'Imported by name at: shop/service.py:5',
      'Only calls are indexed; uses as a value, a type or in strings are not: regex_search finds those.',
    ]);
    expect(r.data).toMatchObject({ references: [{ path: 'shop/service.py', line: 26, caller: 'OrderService.checkout', resolution: 'import' }, { resolution: 'name only' }] });
  });

  it('marks same-file calls, and matches names exactly (no LIKE wildcards)', async () => {
    const r = await h.call('find_references', { name: 'round_money' });
    expect(r.text).toContain('1 call site (1 same file):\nshop/pricing.py:20 in PriceCalculator.compute [same file]');
    expect(r.text).not.toContain('audit');
  });

  it('says when a name is not defined in the repository, and when nothing calls it', async () => {
    const builtin = await h.call('find_references', { name: 'len' });
    expect(builtin.text).toMatch(/^'len' is not defined in the indexed files \(a library or builtin\?\); its calls match by name only\.\n1 call site \(1 name only\):\ncmd\/server\/main.go:22 in handleOrder \[name only\]/);
    const none = await h.call('find_references', { name: 'Cart.addItem' });
    expect(none.text.split('\n').slice(0, 2)).toEqual(["'Cart.addItem' is defined at web/src/cart.ts:14-16 Cart.addItem (method).", "No calls of 'Cart.addItem' found in the index."]);
  });

  it('restricts callers to file_pattern and cuts to max_results with a count', async () => {
    const r = await h.call('find_references', { name: 'compute', file_pattern: 'shop/audit.py' });
    expect(r.text).toContain('1 call site (1 name only):');
    const cut = await h.call('find_references', { name: 'compute', max_results: 1 });
    expect(cut.text).toContain('2 call sites (1 import, 1 not shown):');
  });
});
