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

/** Creates a token for `groups`; returns the token itself (it is not stored and cannot be shown again). */
export async function createToken(db: Queryable, name: string, groups: readonly string[]): Promise<string> {
  const parsed = TokenSchema.safeParse({ name, groups: [...groups] });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ReponavError('BAD_INPUT', `Invalid token ${String(issue.path[0] ?? 'field')}: ${issue.message}.`);
  }
  const token = PREFIX + randomBytes(24).toString('base64url');
  await db.query('INSERT INTO reponav.tokens(name, hash, groups) VALUES ($1, $2, $3)', [name, hashToken(token), [...new Set(groups)].sort()]);
  return token;
}

/** A token as fleet token list shows it (never the token itself). */
export interface TokenInfo {
  name: string;
  groups: string[];
  createdAt: Date;
  revokedAt: Date | null;
}

/** Every token, oldest first (revoked ones too, marked). */
export async function listTokens(db: Queryable): Promise<TokenInfo[]> {
  return (await db.query<TokenInfo>('SELECT name, groups, created_at AS "createdAt", revoked_at AS "revokedAt" FROM reponav.tokens ORDER BY id')).rows;
}

/** Revokes every token called `name`; returns how many. */
export async function revokeToken(db: Queryable, name: string): Promise<number> {
  return (await db.query('UPDATE reponav.tokens SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL', [name])).rowCount ?? 0;
}

/** The principal of a presented token, or null when it is unknown or revoked. */
export async function authenticate(db: Queryable, token: string): Promise<Principal | null> {
  if (!token.startsWith(PREFIX) || token.length > 200) return null;
  const row = (
    await db.query<{ name: string; groups: string[] }>('SELECT name, groups FROM reponav.tokens WHERE hash = $1 AND revoked_at IS NULL', [hashToken(token)])
  ).rows[0];
  return row ? { tokenName: row.name, groups: row.groups } : null;
}
