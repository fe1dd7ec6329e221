/**
 * The header on the team server (`reponav serve`): which repository (of the
 * token's) the page browses, a commit to pin (or the newest indexed one),
 * which commit answered the last call, and sign-out. The choice lives in the
 * query string (`?repo=&commit=`), so a view stays bookmarkable.
 */
import type { InfoResponse } from '../../src/http-api/api-types.js';
import { onAnswered } from './api.js';
import { h } from './dom.js';

type TeamInfo = NonNullable<InfoResponse['team']>;

/** The header controls; with several repositories and none chosen, reloads on the first one. */
export function teamHeader(team: TeamInfo, query: URLSearchParams): HTMLElement {
  const chosen = query.get('repo') ?? '';
  const names = team.repositories.map((r) => r.name);
  if (!names.includes(chosen) && names.length > 1) {
    const next = new URLSearchParams(query);
    next.set('repo', names[0]);
    location.replace(`?${next.toString()}${location.hash}`);
  }
  const current = team.repositories.find((r) => r.name === chosen) ?? team.repositories[0];
  const select = h(
    'select',
    {
      id: 'repo-select',
      name: 'repo',
      'aria-label': 'Repository',
      onchange: (event: Event) => {
        const next = new URLSearchParams();
        next.set('repo', (event.target as HTMLSelectElement).value);
        location.assign(`?${next.toString()}${location.hash}`);
      },
    },
    names.map((name) => h('option', { value: name, selected: name === current?.name }, name)),
  );
  const answered = h('span', { class: 'answered', id: 'answered-from' }, current?.servedCommit ? `newest indexed ${current.servedCommit.slice(0, 12)}` : 'not indexed yet');
  onAnswered((a) => {
    answered.textContent = `answered from ${a.repo} at ${a.commit.slice(0, 12)}`;
    answered.title = a.commit;
  });
  const lag = current?.headError
    ? h('span', { class: 'lag' }, ` (branch head unreadable: ${current.headError})`)
    : current && (current.lagCommits ?? 0) > 0
      ? h('span', { class: 'lag' }, ` (branch head ${current.headCommit?.slice(0, 12)}: ${current.lagCommits} behind, ${current.lagSeconds ?? 0} s)`)
      : null;
  const pin = h(
    'form',
    { method: 'get', action: './', class: 'pin' },
    h('input', { type: 'hidden', name: 'repo', value: current?.name ?? '' }),
    h('input', { name: 'commit', id: 'commit-pin', placeholder: 'commit (newest)', value: query.get('commit') ?? '', size: 12, 'aria-label': 'Commit', pattern: '[0-9a-fA-F]{7,40}' }),
  );
  const signOut = h('form', { method: 'post', action: 'logout', class: 'signout' }, h('button', { type: 'submit', title: `signed in as ${team.token}` }, 'Sign out'));
  return h('span', { class: 'team' }, names.length === 0 ? 'no repository is visible to this token' : select, pin, answered, lag, signOut);
}
