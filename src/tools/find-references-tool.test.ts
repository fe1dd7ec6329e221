import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';

describe('find_references', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
    // A caller that does not import pricing.py and calls compute on an untyped receiver, one whose receiver is typed,
    // a name that differs only where LIKE's `_` wildcard would match, and mentions of round_money that are not calls.
    writeFileSync(
      join(h.copy.root, 'shop', 'audit.py'),
      [
        'from .pricing import PriceCalculator',
        '',
        'def audit(calc, order):',
        '    calc.compute(order)',
        '    return roundXmoney(1)',
        '',
        'def typed_audit(calc: PriceCalculator, order):',
        '    # round_money(order) is not called here',
        '    note = "round_money(order)"',
        '    return calc.compute(order)',
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => h.close());

  it('lists calls that reach the definition, then the same name on other receivers, then imports', async () => {
    const r = await h.call('find_references', { name: 'PriceCalculator.compute' });
    expect(r.isError).toBe(false);
    expect(r.text.split('\n')).toEqual([
      "'PriceCalculator.compute' is defined at shop/pricing.py:18-20 PriceCalculator.compute (method).",
      '2 call sites (2 import):',
      'shop/audit.py:10 in typed_audit [import]',
      '    return calc.compute(order)',
      'shop/service.py:26 in OrderService.checkout [import]',
      '    amount = self.calculator.compute(order)',
      'Same name, other receiver (1; not resolved to this definition):',
      'shop/audit.py:4 in audit [other receiver: calc]',
      '    calc.compute(order)',
      'Imports of the name (2): shop/audit.py:1, shop/service.py:5',
      'Only calls count (never the definition, comments or strings); a call through a receiver counts when the receiver is self/this, the class, an imported module or a variable declared with the class, and a plain call only where it can mean the method. Uses as a value or a type: regex_search.',
    ]);
    expect(r.data).toMatchObject({
      references: [{ path: 'shop/audit.py', line: 10, caller: 'typed_audit', resolution: 'import', receiver: 'calc' }, { path: 'shop/service.py', line: 26, receiver: 'self.calculator' }],
      otherReceivers: [{ path: 'shop/audit.py', line: 4, resolution: 'other receiver', receiver: 'calc' }],
    });
  });

  it('marks same-file calls, and never counts the definition, comments, strings or LIKE-wildcard look-alikes', async () => {
    const r = await h.call('find_references', { name: 'round_money' });
    expect(r.text).toContain('1 call site (1 same file):\nshop/pricing.py:20 in PriceCalculator.compute [same file]');
    expect(r.text).not.toContain('audit');
    expect(r.text).not.toContain('pricing.py:8 ');
  });

  it('says when a name is not defined in the repository, and when nothing calls it', async () => {
    const builtin = await h.call('find_references', { name: 'len' });
    expect(builtin.text).toMatch(/^'len' is not defined in the indexed files \(a library or builtin\?\); its calls match by name only\.\n1 call site \(1 name only\):\ncmd\/server\/main.go:22 in handleOrder \[name only\]/);
    const none = await h.call('find_references', { name: 'Cart.addItem' });
    expect(none.text.split('\n').slice(0, 2)).toEqual(["'Cart.addItem' is defined at web/src/cart.ts:14-16 Cart.addItem (method).", "No calls of 'Cart.addItem' found in the index."]);
  });

  it('restricts callers to file_pattern and cuts to max_results with a count', async () => {
    const r = await h.call('find_references', { name: 'compute', file_pattern: 'shop/audit.py' });
    expect(r.text).toContain('1 call site (1 import):');
    expect(r.text).toContain('Same name, other receiver (1; not resolved to this definition):');
    const cut = await h.call('find_references', { name: 'compute', max_results: 1 });
    expect(cut.text).toContain('2 call sites (1 import, 1 not shown):');
    expect(cut.text).toContain('Same name, other receiver (1, 1 not shown; not resolved to this definition):');
  });
});
