import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';

describe('find_class and find_function', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
  });
  afterAll(async () => h.close());

  it('find_class answers spans, signatures, docs and members', async () => {
    const r = await h.call('find_class', { name: 'Order' });
    expect(r.text).toBe(
      [
        "2 classes matching 'Order' by exact qualified name:",
        'internal/store/store.go:13-16 Order (struct)',
        '    type Order struct',
        '    — Order is a stored order: the customer and the amount charged.',
        'shop/models.py:18-42 Order (class)',
        '    class Order',
        "    — A customer's order: items plus an optional discount code.",
        '    members: add_item [L26-32], total [L34-37], _apply_discount [L39-42]',
      ].join('\n'),
    );
  });

  it('a lookup that finds nothing names a left-out file that mentions the name, with its rule and what brings it back', async () => {
    mkdirSync(join(h.copy.root, 'web/node_modules/widget'), { recursive: true });
    writeFileSync(join(h.copy.root, 'web/node_modules/widget/index.js'), 'export class HiddenWidget {}\n');
    const r = await h.call('find_class', { name: 'HiddenWidget' });
    expect(r.isError).toBe(false);
    expect(r.text).toBe(
      "No class named 'HiddenWidget'.\n" +
        "web/node_modules/widget/index.js names it but is not indexed: it is left out by the default rule 'node_modules/'; add '!node_modules/' to .reponavignore to index it.",
    );
    expect(r.data).toMatchObject({ leftOut: [{ path: 'web/node_modules/widget/index.js' }] });
    // A name no file holds gets no such line.
    expect((await h.call('find_class', { name: 'NoSuchThingAnywhere' })).text).not.toContain('names it');
  });

  it('find_function matches a qualified-name suffix in every language', async () => {
    const r = await h.call('find_function', { name: 'checkout' });
    expect(r.text.split('\n')[0]).toBe("2 functions matching 'checkout' by qualified-name suffix:");
    expect(r.text).toContain('shop/service.py:23-28 OrderService.checkout (method)');
    expect(r.text).toContain('web/src/cart.ts:24-28 Cart.checkout (method)');
    const go = await h.call('find_function', { name: 'Store.Get' });
    expect(go.text).toContain('internal/store/store.go:37-45 Store.Get (method)');
    expect(go.text).toContain('    func (s *Store) Get(customer string) (Order, error)');
  });

  it('narrows with file_pattern and a path prefix, and limits with a note', async () => {
    expect((await h.call('find_function', { name: 'checkout', file_pattern: '*.ts' })).text.split('\n')[0]).toBe(
      "1 function matching 'checkout' by qualified-name suffix in file_pattern '*.ts':",
    );
    expect((await h.call('find_function', { name: 'shop/service.py:checkout' })).text).not.toContain('cart.ts');
    const limited = await h.call('find_function', { name: 'checkout', limit: 1 });
    expect(limited.text.split('\n').pop()).toBe('(+1 more match not shown; raise limit or narrow with file_pattern)');
  });

  it('says when a name is the other kind, and suggests similar names', async () => {
    expect((await h.call('find_function', { name: 'Cart' })).text).toBe(
      "No function named 'Cart'.\nIt exists as a class-like type (use find_class): web/src/cart.ts:5 Cart (class)",
    );
    expect((await h.call('find_class', { name: 'Calculator' })).text).toBe(
      "No class named 'Calculator'.\nSimilar class names: PriceCalculator (shop/pricing.py:12)",
    );
  });

  it('lists the methods an exact top-level match would hide, library code before tests, with the total', async () => {
    mkdirSync(join(h.copy.root, 'tests'), { recursive: true });
    writeFileSync(join(h.copy.root, 'tests', 'helper.py'), 'def report_warning(msg):\n    return msg\n\n\nclass FakeYDL:\n    def report_warning(self, msg):\n        return msg\n');
    writeFileSync(
      join(h.copy.root, 'shop', 'warnings.py'),
      'class Reporter:\n    def report_warning(self, msg):\n        def report_warning(inner):\n            return inner\n        return report_warning(msg)\n',
    );
    const r = await h.call('find_function', { name: 'report_warning' });
    expect(r.text.split('\n').filter((line) => !line.startsWith('    '))).toEqual([
      "4 functions matching 'report_warning': 1 by exact qualified name, then 3 by qualified-name suffix (library code before tests):",
      'tests/helper.py:1-2 report_warning (function)',
      'shop/warnings.py:2-5 Reporter.report_warning (method)',
      'shop/warnings.py:3-4 Reporter.report_warning.report_warning (function)',
      'tests/helper.py:6-7 FakeYDL.report_warning (method)',
    ]);
    expect(r.data).toMatchObject({ tier: 'exact', total: 4, tierCount: 1 });
  });

  it('returns JSON data with the tier and the matches', async () => {
    const r = await h.call('find_function', { name: 'Cart.total' });
    expect(r.data).toMatchObject({ tier: 'exact', total: 1, matches: [{ path: 'web/src/cart.ts', startLine: 19, endLine: 21, kind: 'method' }] });
  });

  it('rejects an empty or oversized name', async () => {
    expect((await h.call('find_class', { name: '' })).text).toBe('Invalid arguments for find_class: name: name must not be empty.');
    expect((await h.call('find_class', { name: 'x'.repeat(400) })).isError).toBe(true);
  });
});
