import { describe, expect, it } from 'vitest';
import { cleanAnswerText } from './answer-text.js';

const BODY = '`Cart.total` (shop/cart.py:16-19) applies the discount before tax.';

describe('cleanAnswerText', () => {
  it('removes a fence around the whole answer, a preamble and a closing offer', () => {
    expect(cleanAnswerText('```markdown\n' + BODY + '\n```')).toBe(BODY);
    expect(cleanAnswerText('Sure! Here is the answer:\n\n' + BODY)).toBe(BODY);
    expect(cleanAnswerText('Here is my answer based on the evidence:\n```md\n' + BODY + '\n```\nLet me know if you need more details.')).toBe(BODY);
    expect(cleanAnswerText('**Answer:**\n' + BODY)).toBe(BODY);
  });

  it('keeps code blocks inside an answer, and one-line answers', () => {
    const withCode = `${BODY}\n\n\`\`\`python\nreturn with_tax(amount)\n\`\`\``;
    expect(cleanAnswerText(withCode)).toBe(withCode);
    expect(cleanAnswerText('Sure.')).toBe('Sure.');
    expect(cleanAnswerText('Here is how it works: the cart sums prices.\nThen it adds tax.')).toBe('Here is how it works: the cart sums prices.\nThen it adds tax.');
  });
});
