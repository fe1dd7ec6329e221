/**
 * The catalog: the repositories the team serves, each with where to fetch it,
 * its tracked branch and the access groups that may see it.
 */
import * as z from '../zod-mini.js';
import { ReponavError } from '../errors.js';
import type { Queryable, TeamDatabase } from './pg-database.js';

/** One catalog entry. */
export interface CatalogRepo {
  name: string;
  /** A clone URL or a local path git can fetch from. */
  url: string;
  branch: string;
  groups: string[];
  /** The branch head by git's last answer (set by the poller; absent on input). */
  headCommit?: string | null;
}

/**
 * A catalog name is a logical name, never a path: one or more segments joined
 * by single `/`, each starting with a letter or digit and then letters,
 * digits, `.`, `_`, `-`. So no leading or trailing `/`, no empty, `.` or `..`
 * segment, no backslash, `%`, space or other character a path or URL decoder
 * could turn into a separator. Nothing on a server or worker ever opens a name
 * as a path (shards are served by name, work folders use folderKey).
 */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
const MAX_NAME = 200;
const GROUP = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** True for a valid catalog name (see NAME). */
export function isCatalogName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= MAX_NAME && NAME.test(name);
}

/** An access group, as catalog entries and tokens both take it. */
export const GroupSchema = z.string().check(z.regex(GROUP, 'a group is letters, digits and . _ - (at most 64)'));

/** The fields of `fleet add`, validated (names and groups are ASCII words; a branch is a git ref name). */
export const CatalogRepoSchema = z.object({
  name: z.string().check(
    z.refine(isCatalogName, `a repository name is a logical name, not a path: segments of letters, digits and . _ - joined by single /, each starting with a letter or digit (at most ${MAX_NAME} characters)`),
  ),
  url: z.string().check(z.minLength(1), z.maxLength(2000)),
  branch: z.string().check(
    z.minLength(1),
    z.maxLength(200),
    z.refine((b) => !/(^[-/.])|\.\.|[\s~^:?*[\\]|@\{|\/$|\.lock$/.test(b), 'not a valid branch name'),
  ),
  groups: z.array(GroupSchema).check(z.minLength(1, 'give at least one access group')),
});

/** A catalog entry checked against CatalogRepoSchema; BAD_INPUT naming the field (and `origin`, when given) otherwise. */
function validRepo(repo: CatalogRepo, origin?: string): z.infer<typeof CatalogRepoSchema> {
  const parsed = CatalogRepoSchema.safeParse({ name: repo.name, url: repo.url, branch: repo.branch, groups: repo.groups });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ReponavError('BAD_INPUT', `Invalid ${issue.path.join('.') || 'repository'}${origin ? ` (${origin})` : ''}: ${issue.message}.`);
}

/** Adds a repository, or updates its URL, branch and groups when the name exists. */
export async function addRepo(db: Queryable, repo: CatalogRepo): Promise<'added' | 'updated'> {
  return upsertRepo(db, validRepo(repo));
}

/**
 * Adds or updates several repositories: every entry is validated first (an
 * invalid one is BAD_INPUT naming its `origin` when there are several, and
 * nothing is written), then all are written in one transaction.
 */
export async function addRepos(db: TeamDatabase, repos: readonly (CatalogRepo & { origin: string })[]): Promise<('added' | 'updated')[]> {
  const valid = repos.map((r) => validRepo(r, repos.length > 1 ? r.origin : undefined));
  return db.transaction(async (client) => {
    const done: ('added' | 'updated')[] = [];
    for (const r of valid) done.push(await upsertRepo(client, r));
    return done;
  });
}

async function upsertRepo(db: Queryable, r: z.infer<typeof CatalogRepoSchema>): Promise<'added' | 'updated'> {
  const result = await db.query<{ inserted: boolean }>(
    `INSERT INTO reponav.repos(name, url, branch, groups) VALUES ($1, $2, $3, $4)
     ON CONFLICT (name) DO UPDATE SET url = excluded.url, branch = excluded.branch, groups = excluded.groups
     RETURNING (xmax = 0) AS inserted`,
    [r.name, r.url, r.branch, [...new Set(r.groups)].sort()],
  );
  return result.rows[0].inserted ? 'added' : 'updated';
}

/** Removes a repository (its commits and shard records go with it); false when it was not there. */
export async function removeRepo(db: Queryable, name: string): Promise<boolean> {
  return ((await db.query('DELETE FROM reponav.repos WHERE name = $1', [name])).rowCount ?? 0) > 0;
}

/**
 * Every repository, by name; only those sharing a group with `groups` when
 * given. A row whose name is not a valid catalog name (written before names
 * were checked) is left out unless `invalid` is set (for `fleet list`, so it
 * can be seen and removed): it is never served, polled or built.
 */
export async function listRepos(db: Queryable, groups?: readonly string[], options: { invalid?: boolean } = {}): Promise<CatalogRepo[]> {
  const rows =
    groups === undefined
      ? await db.query<CatalogRepo>('SELECT name, url, branch, groups, head_commit AS "headCommit" FROM reponav.repos ORDER BY name')
      : await db.query<CatalogRepo>('SELECT name, url, branch, groups, head_commit AS "headCommit" FROM reponav.repos WHERE groups && $1::text[] ORDER BY name', [groups]);
  return options.invalid ? rows.rows : rows.rows.filter((r) => isCatalogName(r.name));
}

/** One repository, or null (also for a name that is not a valid catalog name). */
export async function getRepo(db: Queryable, name: string): Promise<CatalogRepo | null> {
  if (!isCatalogName(name)) return null;
  return (await db.query<CatalogRepo>('SELECT name, url, branch, groups, head_commit AS "headCommit" FROM reponav.repos WHERE name = $1', [name])).rows[0] ?? null;
}
