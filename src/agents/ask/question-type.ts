/**
 * DeepRepoQA checks the answer against the question's type. The types are
 * read from the question's wording (what / why / where / how; anything else
 * is `other`), each type tells the answer writer what a complete answer
 * holds, and a written answer is checked for the one thing its type cannot
 * do without: a where-answer cites locations, a why-answer gives a reason, a
 * how-answer describes steps. A failed check joins the citation problems of
 * the one revision round.
 */

/** The question types. */
export type QuestionType = 'what' | 'why' | 'where' | 'how' | 'other';

/**
 * The type of `question`: the first of why/where/how/what that starts the
 * question or one of its clauses; "which file/function/class" counts as
 * where, "what does … do" stays what.
 */
export function questionType(question: string): QuestionType {
  const q = question.toLowerCase();
  const lead = /(?:^|[.?!;:,]\s+|\b(?:and|but)\s+)(why|where|how|what|which)\b/.exec(q);
  if (!lead) return /\bwhere\b/.test(q) ? 'where' : /\bwhy\b/.test(q) ? 'why' : 'other';
  const word = lead[1]!;
  if (word === 'which') return /^which\s+(?:file|files|module|modules|function|functions|class|classes|method|methods|line|lines|part|place)\b/.test(q.slice(lead.index + lead[0].length - word.length)) ? 'where' : 'what';
  return word as QuestionType;
}

/** What a complete answer to each type holds (added to the answer writer's prompt). */
export const TYPE_GUIDANCE: Record<QuestionType, string> = {
  what: 'This is a WHAT question: say what the code is or does, naming the classes, functions and files involved.',
  why: 'This is a WHY question: give the reason — the design intent, constraint or cause visible in the code — not only a description ("because …").',
  where: 'This is a WHERE question: name the exact files and functions, each with a path:start-end citation.',
  how: 'This is a HOW question: describe the mechanism step by step, in the order the code runs, citing each step.',
  other: 'Answer the question directly, naming the classes, functions and files involved.',
};

const REASON = /\b(because|since|so that|in order to|to (?:avoid|prevent|ensure|allow|keep|make|support)|the reason|so as to|therefore|otherwise|which means|due to)\b/i;

/**
 * The problem of `answer` for its type, or null: a where-answer without a
 * valid citation (it names no location), a how-answer without one (the
 * mechanism is not shown in code), a why-answer without any word of reason.
 * Deliberately coarse: a wording check cannot judge an explanation, only
 * catch the answer that plainly misses its type.
 */
export function typeProblem(type: QuestionType, answer: string, validCitations: number): string | null {
  if (type === 'where' && validCitations === 0) return 'the question asks where: name the locations with path:start-end citations from the evidence.';
  if (type === 'how' && validCitations === 0) return 'the question asks how: show the mechanism in the code, citing each step with path:start-end.';
  if (type === 'why' && !REASON.test(answer)) return 'the question asks why: give the reason the code shows (because …), not only what it does.';
  return null;
}
