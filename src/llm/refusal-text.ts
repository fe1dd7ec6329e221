/**
 * A refusal written as plain text under a normal stop reason ("I'm sorry,
 * but I can't help with that request." with `finish_reason: stop`). Models
 * and proxies that have no `refusal` field or stop reason still refuse this
 * way, and such a reply must never become an answer, an action or a score.
 *
 * The rule, all three parts required:
 * 1. **short**: at most {@link MAX_REFUSAL_CHARS} characters once trimmed
 *    (a refusal is a sentence or two; an answer that apologises for
 *    something is longer);
 * 2. **nothing of an answer in it**: no backticks or code fence, no JSON or
 *    brackets, no path (`shop/cart.py`, `cart.py`), no line reference
 *    (`:12`) — the reply's text is judged on its own: native tool calls
 *    beside a refusal do not make it an answer;
 * 3. **it opens by declining**: its first sentence says the model will not
 *    or cannot *help, assist, comply, answer, provide…* — in English or in
 *    one of the other languages below, and does not go on to answer or to
 *    work ("… but the tax is added in with_tax", "… without reading the code
 *    first; let me search"). Saying sorry is not enough: "Sorry,
 *    I can't find where X happens" is an answer that found nothing, not a
 *    refusal, and "Sorry for the confusion: …" is an answer.
 */

/** Longest text read as a refusal; longer replies carry more than a refusal. */
export const MAX_REFUSAL_CHARS = 400;

/** Anything that makes a reply more than a refusal: code, JSON, paths, line references. */
const ANSWER_MARKERS = [
  /[`{}[\]<>]/,
  // A path with a folder, or a file name with a source extension.
  /[\w.-]+\/[\w.-]+\.[A-Za-z]\w*/,
  /\b[\w-]+\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|scala|md|rst|json|ya?ml|toml|cfg|ini|html|css|sh)\b/i,
  /\w:\d/,
];

/** Verbs of help after an English "can't": declining the task, not reporting a result ("can't find"). */
const EN_HELP = String.raw`(?:help(?!\s+(?:but|notic|think|wonder|feel))|assist|comply|fulfil|fulfill|provide|answer|respond|support|engage|do\s+(?:that|this|so)|complete\s+(?:that|this)|process\s+(?:that|this)|continue|proceed|share|generate|write)`;
const EN_CANNOT = String.raw`(?:can(?:'|’)?t|cannot|can\s+not|won(?:'|’)t|will\s+not|(?:am|'m|’m)\s+(?:unable|not\s+able)\s+to|unable\s+to|not\s+able\s+to)`;

/** First-sentence patterns that decline, per language. */
const DECLINES: RegExp[] = [
  // English: "I'm sorry, but I can't help with that", "I cannot assist", "I must decline", "I'm unable to provide…".
  new RegExp(String.raw`\b(?:i|we)\s*(?:'m|’m|am|are)?\s*(?:really\s+|afraid\s+(?:that\s+)?i\s+)?${EN_CANNOT}\s+(?:\w+\s+){0,2}?${EN_HELP}\b`, 'i'),
  /\b(?:i|we)\s+(?:must|have\s+to|need\s+to|will\s+have\s+to)\s+(?:respectfully\s+)?decline\b/i,
  new RegExp(String.raw`\b(?:i|we)\s+(?:won(?:'|’)t|will\s+not)\s+be\s+able\s+to\s+${EN_HELP}\b`, 'i'),
  // Spanish, Portuguese, Italian: "no puedo ayudar", "não posso ajudar", "non posso aiutarti".
  /\bno\s+(?:puedo|podemos|es\s+posible)\s+(?:\w+\s+){0,2}?(?:ayudar|asistir|responder|proporcionar|cumplir|hacer\s+eso|atender)/i,
  /\bn[ãa]o\s+(?:posso|podemos|consigo)\s+(?:\w+\s+){0,2}?(?:ajudar|atender|responder|fornecer|fazer\s+isso|cumprir)/i,
  /\bnon\s+(?:posso|possiamo)\s+(?:\w+\s+){0,2}?(?:aiutar|assister|risponder|fornir|soddisfar)/i,
  // French: "je ne peux pas vous aider", "je ne suis pas en mesure de répondre".
  /\bje\s+ne\s+(?:peux|puis|pourrai)\s+pas\s+(?:\w+\s+){0,2}?(?:aider|assister|r[ée]pondre|fournir|donner\s+suite|accéder)/i,
  /\bje\s+ne\s+suis\s+pas\s+en\s+mesure\s+de\s+(?:\w+\s+){0,2}?(?:aider|r[ée]pondre|fournir)/i,
  // German: "ich kann dabei nicht helfen", "ich kann Ihnen damit leider nicht weiterhelfen".
  /\b(?:ich\s+kann|kann\s+ich)\s+(?:\S+\s+){0,4}?nicht\s+(?:\S+\s+){0,1}?(?:helfen|weiterhelfen|behilflich|unterstützen|beantworten|nachkommen)/i,
  // Russian: "я не могу помочь", "не могу с этим помочь".
  /не\s+(?:могу|можем|смогу)\s+(?:\S+\s+){0,3}?(?:помочь|помогать|ответить|выполнить|предоставить)/i,
  // Chinese: "抱歉，我无法帮助…", "对不起，我不能协助…".
  /(?:无法|不能|不可以|没办法)(?:\S{0,6}?)(?:帮助|帮忙|协助|提供|回答|处理|完成|满足)/,
  // Japanese: "申し訳ありませんが、そのリクエストにはお応えできません".
  /(?:お手伝い|お答え|お応え|対応|ご協力|回答|支援|協力)(?:することは|は|が)?できません/,
  // Korean: "죄송하지만 도와드릴 수 없습니다".
  /(?:도와|도움을\s*드릴|답변|지원|응답|처리)[^\s]*\s*수\s*없습니다/,
];

/**
 * A contrast or a deferral after the decline: the reply goes on to answer ("I can't answer that exactly,
 * but …") or to work ("I can't answer without reading the code first; let me search").
 */
const CONTRAST = /(?:^|[\s,;:，；])(?:but|however|though|although|yet|instead|that said|without|until|before|unless|first|let me(?!\s+know)|let's|pero|sin embargo|mais|cependant|aber|jedoch|doch|но|однако|ma|mas|porém|però)(?![\w\u00C0-\u024F\u0400-\u04FF])|但是|不过|但|しかし|ただし|하지만|그러나/i;

/** The first sentence of `text` (up to the first sentence end, or the first 200 characters). */
function firstSentence(text: string): string {
  const end = /[.!?。！？](?=\s|$)|[。！？]/.exec(text);
  return (end ? text.slice(0, end.index + 1) : text).slice(0, 200);
}

/** True when `text` is a refusal written as plain text (the rule in the module comment). */
export function isRefusalText(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > MAX_REFUSAL_CHARS) return false;
  if (ANSWER_MARKERS.some((marker) => marker.test(trimmed))) return false;
  const opening = firstSentence(trimmed);
  for (const pattern of DECLINES) {
    const match = pattern.exec(opening);
    // What follows the decline must not turn into an answer.
    if (match && !CONTRAST.test(trimmed.slice(match.index + match[0].length))) return true;
  }
  return false;
}
