import { describe, expect, it } from 'vitest';
import { questionType, typeProblem } from './question-type.js';

describe('questionType', () => {
  it('reads the type from the wording', () => {
    expect(questionType('Where is the discount applied?')).toBe('where');
    expect(questionType('Why does the cart apply the discount before tax?')).toBe('why');
    expect(questionType('How does the cart compute its total?')).toBe('how');
    expect(questionType('What does with_tax return?')).toBe('what');
    expect(questionType('Which file defines the Cart class?')).toBe('where');
    expect(questionType('In the CLI, how are flags parsed?')).toBe('how');
    expect(questionType('Tell me about the cart.')).toBe('other');
    expect(questionType('Explain the pricing module. Why is TAX_RATE global?')).toBe('why');
  });

  it('finds the one thing each type cannot do without', () => {
    expect(typeProblem('where', 'It is in the pricing module.', 0)).toMatch(/asks where/);
    expect(typeProblem('where', 'In `apply_discount` (shop/pricing.py:6-10).', 1)).toBeNull();
    expect(typeProblem('why', 'The cart calls apply_discount then with_tax.', 1)).toMatch(/asks why/);
    expect(typeProblem('why', 'Tax is added last because the discount applies to the net price.', 1)).toBeNull();
    expect(typeProblem('how', 'It sums the prices and adds tax.', 0)).toMatch(/asks how/);
    expect(typeProblem('how', '`total` (shop/cart.py:16-19) sums the prices, then calls `with_tax`.', 1)).toBeNull();
    expect(typeProblem('what', 'Anything.', 0)).toBeNull();
  });
});
