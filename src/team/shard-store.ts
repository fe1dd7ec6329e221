/**
 * Where shards (index files) live between the worker that built them and the
 * servers that answer from them. Two stores: a shared folder (a network file
 * system in production) and PostgreSQL itself. Both are checksummed on write
 * (the SHA-256 recorded in the registry) and on read (a download that does not
 * match is refused), and both make an upload visible all at once or not at all.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { ReponavError } from '../errors.js';

/** What an upload wrote. */
export interface StoredShard {
  sizeBytes: number;
  sha256: string;
}

/** A shard store. `location` is a relative key such as `app/3f2a…-x1y2.db`. */
export interface ShardStore {
  /** `folder:/path` or `postgres`, for logs and status. */
  readonly description: string;
  /** Uploads the file at `localPath` under `location`, atomically. */
  put(localPath: string, location: string): Promise<StoredShard>;
  /** Downloads `location` to `destPath` (atomically), refusing it unless its SHA-256 is `sha256`. */
  get(location: string, sha256: string, destPath: string): Promise<void>;
  /** Deletes a shard (absent is fine). */
  delete(location: string): Promise<void>;
  /** Deletes every shard of `repo` (fleet remove); returns how many. */
  deleteRepo(repo: string): Promise<number>;
  /** Deletes every shard of `repo` at `commit`, registered or not (fleet purge); returns how many. */
  deleteCommit(repo: string, commit: string): Promise<number>;
  /** Null when the store can be read and written, else what is wrong (for /healthz). */
  check(): Promise<string | null>;
  /** Optional: bytes free where the store writes (a folder's file system); absent when the store cannot tell (PostgreSQL). */
  freeBytes?(): Promise<number>;
}

/** A fresh location for a build of `repo` at `commit` (unique per build, so two builds never overwrite each other). */
export function shardLocation(repo: string, commit: string): string {
  return `${repoPrefix(repo)}${commit}-${randomBytes(4).toString('hex')}.db`;
}

/** The location prefix of every shard of `repo` at `commit` (see shardLocation). */
export function commitPrefix(repo: string, commit: string): string {
  return `${repoPrefix(repo)}${commit}-`;
}

/** The location prefix of every shard of `repo`. */
export function repoPrefix(repo: string): string {
  return `${repo.replace(/\//g, '+')}/`;
}

/** SHA-256 and size of a file. */
export async function fileDigest(path: string): Promise<StoredShard> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    sizeBytes += (chunk as Buffer).length;
  }
  return { sizeBytes, sha256: hash.digest('hex') };
}

/** The error of a download whose bytes do not match the registry. */
export function checksumMismatch(location: string, expected: string, actual: string): ReponavError {
  return new ReponavError(
    'INDEX_CORRUPT',
    `Shard ${location} failed its checksum (expected ${expected.slice(0, 12)}…, got ${actual.slice(0, 12)}…); it was not used.`,
  );
}
