/**
 * English words that carry no signal in issue texts, plus issue-template filler.
 * Kept short on purpose: code words such as `get`, `set`, `file`, `list` stay searchable.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been being but by can could did do does doing done for from had has have having he her ' +
    'here hers him his how i if in into is it its itself just me more most my no nor not of off on once only or other ' +
    'our ours out over own same she should so some such than that the their theirs them then there these they this ' +
    'those through to too under until up very was we were what when where which while who whom why will with would ' +
    'you your yours also any all am because before after again against both each few further between during above below ' +
    'down like ve ll re don doesn didn isn wasn aren weren won wouldn shouldn couldn hasn haven hadn mustn ' +
    'however thus therefore though although yet still even maybe perhaps please thanks thank hi hello ' +
    'issue bug describe description expected behavior behaviour actual reproduce steps environment version versions ' +
    'checklist verbose log output yes example think want see seems seem get got use using used way work works working ' +
    'one two well make made let need needs try tried trying currently instead something anything new would'
  ).split(' '),
);
