/**
 * Generated refusals and generated answers that apologise (seeded), for the
 * refusal rule's tests in both directions: refusal-text.test.ts and the reply
 * generator (test/reply-styles).
 */
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Refusals as models write them: an optional apology, a decline, an object, an optional offer. */
const APOLOGIES = ["I'm sorry, but ", 'Sorry, ', 'I apologize, but ', 'Unfortunately, ', "I'm afraid ", '', 'I’m sorry, but '];
const DECLINES = [
  "I can't help with",
  'I cannot assist with',
  "I can't comply with",
  "I'm unable to help with",
  'I am not able to provide help with',
  "I won't be able to help with",
  'I must decline',
  'I cannot answer',
  "I'm not able to fulfill",
];
const OBJECTS = [' that request.', ' that.', ' this request.', '.', ' this.', ' that request!'];
const OFFERS = ['', ' If you have another question, feel free to ask.', ' Is there anything else I can help you with?', ' Let me know if there is something else.', " I'll be glad to help with something else."];

/** Refusals in other languages, as real models write them. */
export const OTHER_LANGUAGE_REFUSALS = [
  '抱歉，我无法帮助完成这个请求。',
  '对不起，我不能协助处理此请求。',
  '申し訳ありませんが、そのリクエストにはお応えできません。',
  'Lo siento, pero no puedo ayudar con eso.',
  'Je suis désolé, mais je ne peux pas vous aider avec cette demande.',
  'Es tut mir leid, aber ich kann dabei nicht helfen.',
  'Es tut mir leid, aber dabei kann ich Ihnen nicht helfen.',
  'Desculpe, mas não posso ajudar com isso.',
  'Извините, но я не могу помочь с этим запросом.',
  'Mi dispiace, ma non posso aiutarti con questa richiesta.',
  '죄송하지만 그 요청은 도와드릴 수 없습니다.',
];

/** One generated refusal: English in many phrasings, or another language. */
export function generatedRefusal(random: () => number): string {
  if (random() < 0.3) return pick(random, OTHER_LANGUAGE_REFUSALS);
  if (random() < 0.05) return `${pick(random, APOLOGIES)}I can't do that.`;
  return `${pick(random, APOLOGIES)}${pick(random, DECLINES)}${pick(random, OBJECTS)}${pick(random, OFFERS)}`;
}

/** Openings of real answers that apologise or hedge. */
export const APOLOGETIC_OPENINGS = ["I'm sorry, but ", 'Sorry for the confusion: ', 'Sorry, ', 'Apologies: ', "I'm sorry, I can't be certain, but ", 'Unfortunately, '];
const ANSWER_BODIES = [
  '`with_tax` (shop/pricing.py:13-15) adds the tax after the discount.',
  'the discount is applied twice because `Cart.apply_discount` runs in both shop/cart.py and shop/checkout.py.',
  "I can't find where the tax is added; the search for `TAX_RATE` returned nothing.",
  'tax is added in with_tax, which multiplies the subtotal by TAX_RATE after the discount is applied; the discount itself is applied by apply_discount, which the checkout calls once and the cart calls again, so a code used twice is counted twice.',
  '```answer\n{"files": ["shop/cart.py"]}\n```',
  '{"score": 73, "rationale": "the call site applies the code twice"}',
  "I couldn't determine which version is used, but pricing.py defines both.",
];
const HEDGES = [
  "I can't answer that exactly, but the tax is added after the discount in with_tax.",
  "I'm sorry, but I cannot help noticing that the discount runs twice here.",
  'Lo siento, no puedo confirmarlo del todo, pero el impuesto se añade en with_tax.',
  "I can't help with the deployment part, however the tax is added in with_tax after the discount.",
  "I can't answer without reading the code first. Let me search.",
  'I cannot answer yet; let me look at the cart.',
];

/** One generated answer that apologises, hedges or reports that nothing was found: never a refusal. */
export function generatedApologeticAnswer(random: () => number): string {
  if (random() < 0.15) return pick(random, HEDGES);
  return `${pick(random, APOLOGETIC_OPENINGS)}${pick(random, ANSWER_BODIES)}`;
}
