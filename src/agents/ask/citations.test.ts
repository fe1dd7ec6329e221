import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../test/helpers/mulberry32.js';
import { containsName } from './citation-check.js';
import { asName, markUnverified, parseCitations, removeCitations } from './citations.js';

describe('parseCitations', () => {
  it('finds spans and the names attributed to each', () => {
    const text = 'Flags are read by `parse_args` (shop/cli.py:4-9), while `Cart.total` in `shop/cart.py:16-19` applies `with_tax`.';
    const found = parseCitations(text);
    expect(found.map((c) => [c.path, c.startLine, c.endLine, c.names])).toEqual([
      ['shop/cli.py', 4, 9, ['parse_args']],
      ['shop/cart.py', 16, 19, ['Cart.total']],
    ]);
  });

  it('uses the clause after a citation when the one before names nothing, and accepts single lines and L-prefixes', () => {
    const found = parseCitations('See shop/pricing.py:L3 which defines `TAX_RATE`. Also pricing.py:6–10 and src/app.py#L20-L31.');
    expect(found.map((c) => [c.path, c.startLine, c.endLine, c.names])).toEqual([
      ['shop/pricing.py', 3, 3, ['TAX_RATE']],
      ['pricing.py', 6, 10, []],
      ['src/app.py', 20, 31, []],
    ]);
  });

  it('reads lines written in words and in CJK, and bare paths with a folder or in backticks', () => {
    const found = parseCitations(
      'a.py (lines 12 to 30) then src/b.py, lines 40-66 and c/d.py line 9, e/f.py 第 900-950 行, g/h.py 的第 7 行; see `setup.py` and lib/x.ts but not Node.js.',
    );
    expect(found.map((c) => [c.path, c.startLine, c.endLine, c.pathOnly ?? false])).toEqual([
      ['a.py', 12, 30, false],
      ['src/b.py', 40, 66, false],
      ['c/d.py', 9, 9, false],
      ['e/f.py', 900, 950, false],
      ['g/h.py', 7, 7, false],
      ['setup.py', 1, 1, true],
      ['lib/x.ts', 1, 1, true],
    ]);
  });

  it('only takes the clause that leads to the citation', () => {
    const [c] = parseCitations('Unlike `jsonify`, the `dumps` method (provider.py:166-179) sets defaults.');
    expect(c!.names).toEqual(['dumps']);
  });

  it('ignores URLs, file names and keywords as names', () => {
    expect(parseCitations('see https://example.com:443/x')).toEqual([]);
    expect(asName('app.py')).toBeNull();
    expect(asName('None')).toBeNull();
    expect(asName('parse_args()')).toBe('parse_args');
    expect(asName('a + b')).toBeNull();
  });
});

describe('removeCitations and containsName', () => {
  it('removes occurrences with their empty wrappers', () => {
    const text = 'It is `f` (`a.py:1-2`) and g (b.py:3-4, c.py:5-6).';
    const cs = parseCitations(text);
    expect(removeCitations(text, [cs[0]!])).toBe('It is `f` and g (b.py:3-4, c.py:5-6).');
    expect(removeCitations(text, [cs[1]!])).toBe('It is `f` (`a.py:1-2`) and g (c.py:5-6).');
    expect(removeCitations(text, cs)).toBe('It is `f` and g.');
    const code = 'Use `a ? b : c` here (x.py:1-2) , then stop.';
    expect(removeCitations(code, parseCitations(code))).toBe('Use `a ? b : c` here, then stop.');
  });

  it('matches the last dotted part as a whole word', () => {
    expect(containsName('    def total(self):', 'Cart.total')).toBe(true);
    expect(containsName('    def totals(self):', 'total')).toBe(false);
  });
});

describe('markUnverified', () => {
  it('removes the citation and marks the end of the clause that held its claim, once per clause', () => {
    const text = '`f` (a.py:1-2) adds tax. Then `g` (b.py:3-4, c.py:5-6) rounds it; `h` is at d.py:7-8, done.';
    const cs = parseCitations(text);
    expect(markUnverified(text, [cs[0]!])).toBe('`f` adds tax [unverified]. Then `g` (b.py:3-4, c.py:5-6) rounds it; `h` is at d.py:7-8, done.');
    expect(markUnverified(text, [cs[1]!, cs[2]!, cs[3]!])).toBe('`f` (a.py:1-2) adds tax. Then `g` rounds it [unverified]; `h` is at [unverified], done.');
    expect(markUnverified('- `f` (a.py:1-2)\n- `g` (b.py:1-2)', parseCitations('- `f` (a.py:1-2)\n- `g` (b.py:1-2)').slice(1))).toBe('- `f` (a.py:1-2)\n- `g` [unverified]');
  });

  it('lines in words or in CJK: no stray parenthesis, no separator left joining nothing', () => {
    const text =
      'Tax is added by `with_tax` (shop/pricing.py:13-15). The discount rules live in billing/discounts.py (lines 12 to 30), ' +
      'and the encoding in src/flask/json/encoder.py, lines 40-66. See also shop/pricing.py 第 900-950 行 and shop/cart.py line 9. ' +
      'Rounding is in `round_total` (shop/money.py（第 3 行）).';
    const cs = parseCitations(text);
    expect(cs.map((c) => c.text)).toEqual([
      'shop/pricing.py:13-15',
      'billing/discounts.py (lines 12 to 30)',
      'src/flask/json/encoder.py, lines 40-66',
      'shop/pricing.py 第 900-950 行',
      'shop/cart.py line 9',
      'shop/money.py（第 3 行）',
    ]);
    expect(markUnverified(text, cs.slice(1))).toBe(
      'Tax is added by `with_tax` (shop/pricing.py:13-15). The discount rules live in [unverified], and the encoding in [unverified]. See also [unverified]. Rounding is in `round_total` [unverified].',
    );
  });

  it('seeded lists of citations, any of them removed: never a stray bracket, a doubled space or a separator before the mark', () => {
    const forms = ['a/b.py:3-4', 'c/d.py (lines 1 to 2)', 'e/f.py, lines 5-6', 'g/h.py line 9', 'i/j.py 第 7-8 行', '`k/l.py:1-2`'];
    for (let seed = 1; seed <= 300; seed++) {
      const random = mulberry32(seed);
      const pick = () => forms[Math.floor(random() * forms.length)]!;
      const list = Array.from({ length: 1 + Math.floor(random() * 3) }, pick);
      const joined = list.length === 1 ? list[0]! : `${list.slice(0, -1).join(', ')} and ${list.at(-1)!}`;
      const text = random() < 0.5 ? `The total is computed in ${joined}. Done.` : `See \`total\` (${list.join(', ')}) for it. Done.`;
      const cs = parseCitations(text);
      expect(cs, `seed ${seed}: ${text}`).toHaveLength(list.length);
      const removed = cs.filter(() => random() < 0.6);
      const out = markUnverified(text, removed.length > 0 ? removed : cs);
      expect(out, `seed ${seed}: ${text}`).not.toMatch(/\(\s*\)|（\s*）|\(\s*\[unverified|\s[,;]|\s(?:and|or) \[unverified\]|, \[unverified\]| {2}|^\s|\s$|\s\)|\(\s|\s\./);
      const depth = (open: RegExp, close: RegExp) => (out.match(open)?.length ?? 0) - (out.match(close)?.length ?? 0);
      expect(depth(/[(（]/g, /[)）]/g), `seed ${seed}: ${text} → ${out}: brackets balanced`).toBe(0);
    }
  });
});
