// How a fix commit's message becomes a localization query (bench/history-instances.mjs).
//
// A commit that names a pull request or an issue often carries better text than
// its subject: a GitHub merge commit's body is the pull request's title, a squash
// merge's subject is it, and a body line such as `Fixes #123: Crash when …` quotes
// the issue's title. Each query records which of these it was formed from
// (`query_source`), so figures can be split by it:
// - `merge-pull-request`: a `Merge pull request #N from …` commit; the query is its body (the title, then any description);
// - `issue-title`: a body line `Fixes|Closes|Resolves|Refs #N: title` (or `- title`, `(title)`, quoted) gave a
//   title of at least 3 words; the query is that title, then the rest of the message;
// - `pull-request-title`: the subject ended with `(#N)` (a squash merge: the subject is the pull request's title);
// - `commit-message`: the message alone.
// The issue and pull-request numbers the message names are kept in `issue_refs` (numbers only: no tracker is read).

const TRAILER_BY = /^\s*[A-Za-z][A-Za-z-]*-by:\s/;
const DROPPED_LINES = [
  TRAILER_BY,
  /^\s*Change-Id:\s/i,
  /^\s*\(cherry picked from commit [0-9a-f]+\)\s*$/i,
  /^\s*(close[sd]?|fix(e[sd])?|resolve[sd]?|refs?|see)\s*:?\s*((\S+\/\S+)?#\d+[\s,]*)+\.?\s*$/i,
  /^\s*(\S+:\s*)?<?https?:\/\/\S+\/(pull|issues)\/\d+\S*>?\s*$/i,
  /^\s*[-*=_]{3,}\s*$/,
];
const MERGE_PULL_REQUEST = /^Merge pull request #(\d+) from \S+\s*$/;
const TITLED_REFERENCE = /^\s*(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|refs?|see)\s*:?\s*(?:\S+\/\S+)?#(\d+)\s*(?::|-|–|—|\(|")\s*(.+?)[)"]?\s*$/i;
const REFERENCE = /(?:^|[\s(])(?:\S+\/\S+)?#(\d+)\b/g;

/** The message without trailer lines that carry no description, for the fix test and the query. */
export function cleanMessage(message) {
  const lines = message.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 0) lines[0] = lines[0].replace(/\s*\(#\d+\)\s*$/, '');
  const kept = lines.filter((line) => !DROPPED_LINES.some((pattern) => pattern.test(line)));
  return kept.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/** The issue and pull-request numbers a message names, in order of first mention. */
export function issueRefs(message) {
  const refs = [];
  for (const match of message.matchAll(REFERENCE)) if (!refs.includes(Number(match[1]))) refs.push(Number(match[1]));
  return refs;
}

/** True when a commit (its subject) is a GitHub pull-request merge. */
export function isPullRequestMerge(message) {
  return MERGE_PULL_REQUEST.test(message.split('\n')[0] ?? '');
}

/**
 * The query of a commit and how it was formed: `{ query, source, refs }`
 * (sources in this file's header). `merge`: the commit has several parents.
 * Returns null for a merge that is not a pull request's (a branch merge brings
 * in many unrelated changes).
 */
export function formQuery(message, merge = false) {
  const text = message.replace(/\r\n/g, '\n');
  const refs = issueRefs(text);
  const [subject = ''] = text.split('\n');
  if (merge) {
    if (!MERGE_PULL_REQUEST.test(subject)) return null;
    return { query: cleanMessage(text.split('\n').slice(1).join('\n')), source: 'merge-pull-request', refs };
  }
  for (const line of text.split('\n').slice(1)) {
    const titled = TITLED_REFERENCE.exec(line);
    if (titled && titled[2].split(/\s+/).filter(Boolean).length >= 3) {
      const rest = cleanMessage(text.split('\n').filter((l) => l !== line).join('\n'));
      return { query: `${titled[2].trim()}\n\n${rest}`.trim(), source: 'issue-title', refs };
    }
  }
  return { query: cleanMessage(text), source: /\(#\d+\)\s*$/.test(subject) ? 'pull-request-title' : 'commit-message', refs };
}
