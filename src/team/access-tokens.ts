/**
 * Bearer tokens of the team server: created once and shown once, stored only
 * as a SHA-256 hash, each limited to access groups. A token sees a repository
 * when they share a group.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as z from '../zod-mini.js';
import { ReponavError } from '../errors.js';
import { GroupSchema } from './catalog.js';
import type { Queryable } from './pg-database.js';

/** Who a valid token is. */
export interface Principal {
  tokenName: string;
  groups: string[];
}

/** A token's name and groups, validated like catalog groups. */
const TokenSchema = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1, 'a token needs a name'), z.maxLength(200, 'at most 200 characters')),
  groups: z.array(GroupSchema).check(z.minLength(1, 'a token needs at least one access group (--groups a,b)')),
});

/** Tokens start with this, so a leaked one is recognisable by secret scanners. */
const PREFIX = 'rnv_';

/** The stored form of a token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** How long a new token lasts unless told otherwise. */
export const DEFAULT_TOKEN_DAYS = 90;
/** Last use is recorded at most this often per token (a write per request would cost more than it tells). */
const LAST_USE_GRANULARITY_SECONDS = 60;

/** Creates a token for `groups`, expiring after `expiresInSeconds` (null: never); returns the token itself (it is not stored and cannot be shown again). */
export async function createToken(db: Queryable, name: string, groups: readonly string[], expiresInSeconds: number | null = DEFAULT_TOKEN_DAYS * 86_400): Promise<string> {
  const parsed = TokenSchema.safeParse({ name, groups: [...groups] });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ReponavError('BAD_INPUT', `Invalid token ${String(issue.path[0] ?? 'field')}: ${issue.message}.`);
  }
  if (expiresInSeconds !== null && !(Number.isFinite(expiresInSeconds) && expiresInSeconds > 0)) throw new ReponavError('BAD_INPUT', 'A token must expire after a positive time (or never).');
  const token = PREFIX + randomBytes(24).toString('base64url');
  const inserted = await db.query(
    `INSERT INTO reponav.tokens(name, hash, groups, expires_at) VALUES ($1, $2, $3, CASE WHEN $4::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $4::float8) END)
     ON CONFLICT (name) WHERE revoked_at IS NULL DO NOTHING`,
    [name, hashToken(token), [...new Set(groups)].sort(), expiresInSeconds],
  );
  if ((inserted.rowCount ?? 0) === 0) throw new ReponavError('BAD_INPUT', `A token named '${name.slice(0, 200)}' exists; revoke it first (reponav fleet token revoke) or pick another name.`);
  return token;
}

/** A token as fleet token list shows it (never the token itself). */
export interface TokenInfo {
  name: string;
  groups: string[];
  createdAt: Date;
  /** Null: never expires. */
  expiresAt: Date | null;
  /** When a request last carried it (to the minute); null: never. */
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** True once its expiry has passed (by the database clock). */
  expired: boolean;
}

/** Every token, oldest first (revoked ones too, marked). */
export async function listTokens(db: Queryable): Promise<TokenInfo[]> {
  return (
    await db.query<TokenInfo>(
      `SELECT name, groups, created_at AS "createdAt", expires_at AS "expiresAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt",
              COALESCE(expires_at <= now(), false) AS expired
       FROM reponav.tokens ORDER BY id`,
    )
  ).rows;
}

/** Revokes the active token called `name`; returns how many (0 or 1). */
export async function revokeToken(db: Queryable, name: string): Promise<number> {
  return (await db.query('UPDATE reponav.tokens SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL', [name])).rowCount ?? 0;
}

/** The principal of a presented token, or null when it is unknown, revoked or expired. Records its use (to the minute). */
export async function authenticate(db: Queryable, token: string): Promise<Principal | null> {
  if (!token.startsWith(PREFIX) || token.length > 200) return null;
  const row = (
    await db.query<{ id: number; name: string; groups: string[]; stale: boolean }>(
      `SELECT id, name, groups, (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2)) AS stale FROM reponav.tokens
       WHERE hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [hashToken(token), LAST_USE_GRANULARITY_SECONDS],
    )
  ).rows[0];
  if (!row) return null;
  if (row.stale) await db.query('UPDATE reponav.tokens SET last_used_at = now() WHERE id = $1', [row.id]);
  return { tokenName: row.name, groups: row.groups };
}
