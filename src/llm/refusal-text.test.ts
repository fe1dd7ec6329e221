import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { generatedApologeticAnswer, generatedRefusal, OTHER_LANGUAGE_REFUSALS } from '../../test/helpers/refusals.js';
import { isRefusalText, MAX_REFUSAL_CHARS } from './refusal-text.js';
import { classifyReply } from './reply-outcome.js';

describe('isRefusalText', () => {
  it('reads the listed refusal and its kin in other languages', () => {
    expect(isRefusalText("I'm sorry, but I can't help with that request.")).toBe(true);
    for (const text of OTHER_LANGUAGE_REFUSALS) expect(isRefusalText(text), text).toBe(true);
  });

  it('is not fooled by an answer that says sorry', () => {
    expect(isRefusalText("Sorry, I can't find where the discount is applied twice.")).toBe(false);
    expect(isRefusalText('Sorry for the confusion: `with_tax` (shop/pricing.py:13-15) adds tax.')).toBe(false);
    expect(isRefusalText("I'm sorry, but I can't help with that request. ".repeat(10))).toBe(false);
  });

  it(`generated refusals (seeded) are refusals; generated answers that apologise are not`, () => {
    const seed = 4102;
    const random = mulberry32(seed);
    for (let i = 0; i < 1000; i++) {
      const refusal = generatedRefusal(random);
      expect(refusal.length).toBeLessThanOrEqual(MAX_REFUSAL_CHARS);
      expect(isRefusalText(refusal), `seed ${seed}, refusal ${i}: ${refusal}`).toBe(true);
      const answer = generatedApologeticAnswer(random);
      expect(isRefusalText(answer), `seed ${seed}, answer ${i}: ${answer}`).toBe(false);
    }
  });
});

describe('classifyReply and a refusal written as text', () => {
  it('a refusal under a normal stop is refused; the same words beside tool calls or cut are not', () => {
    const text = "I'm sorry, but I can't help with that request.";
    expect(classifyReply({ finishReason: 'stop', hasContent: true, text })).toBe('refused');
    expect(classifyReply({ finishReason: 'END_TURN', hasContent: true, text })).toBe('refused');
    expect(classifyReply({ finishReason: 'tool_calls', hasContent: true })).toBe('complete');
    expect(classifyReply({ finishReason: 'length', hasContent: true, text })).toBe('cut');
    expect(classifyReply({ finishReason: 'stop', hasContent: true, text: 'Sorry for the wait: `with_tax` adds tax.' })).toBe('complete');
  });
});
