/**
 * The PostgreSQL shard store: a shard's bytes as 1 MiB `bytea` rows of
 * reponav.shard_chunks, inserted in one transaction (so a shard is all there
 * or not there), read back part by part and checked against its SHA-256.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { ReponavError } from '../errors.js';
import type { TeamDatabase } from './pg-database.js';
import { checksumMismatch, commitPrefix, repoPrefix, type ShardStore, type StoredShard } from './shard-store.js';

const PART_BYTES = 1024 * 1024;

/** Shards in the team database itself. */
export class PgShardStore implements ShardStore {
  readonly description = 'postgres';

  constructor(private readonly db: TeamDatabase) {}

  async put(localPath: string, location: string): Promise<StoredShard> {
    return this.db.transaction(async (client) => {
      const hash = createHash('sha256');
      let sizeBytes = 0;
      let part = 0;
      await client.query('DELETE FROM reponav.shard_chunks WHERE location = $1', [location]);
      for await (const chunk of createReadStream(localPath, { highWaterMark: PART_BYTES })) {
        const bytes = chunk as Buffer;
        hash.update(bytes);
        sizeBytes += bytes.length;
        await client.query('INSERT INTO reponav.shard_chunks(location, part, bytes) VALUES ($1, $2, $3)', [location, part++, bytes]);
      }
      return { sizeBytes, sha256: hash.digest('hex') };
    });
  }

  async get(location: string, sha256: string, destPath: string): Promise<void> {
    const temp = `${destPath}.part-${randomBytes(4).toString('hex')}`;
    const file = await open(temp, 'w');
    const hash = createHash('sha256');
    let parts = 0;
    try {
      const count = (await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM reponav.shard_chunks WHERE location = $1', [location])).rows[0].n;
      if (count === 0) throw new ReponavError('INDEX_MISSING', `Shard ${location} is missing from the PostgreSQL shard store.`);
      // Part by part, so a large shard never sits in memory whole.
      for (; parts < count; parts++) {
        const row = (await this.db.query<{ bytes: Buffer }>('SELECT bytes FROM reponav.shard_chunks WHERE location = $1 AND part = $2', [location, parts])).rows[0];
        if (!row) throw new ReponavError('INDEX_MISSING', `Shard ${location} lacks part ${parts} in the PostgreSQL shard store.`);
        hash.update(row.bytes);
        await file.write(row.bytes);
      }
      await file.sync();
    } catch (error) {
      await file.close();
      await rm(temp, { force: true });
      throw error;
    }
    await file.close();
    const actual = hash.digest('hex');
    if (actual !== sha256) {
      await rm(temp, { force: true });
      throw checksumMismatch(location, sha256, actual);
    }
    await rename(temp, destPath);
  }

  async delete(location: string): Promise<void> {
    await this.db.query('DELETE FROM reponav.shard_chunks WHERE location = $1', [location]);
  }

  async deleteRepo(repo: string): Promise<number> {
    const result = await this.db.query("DELETE FROM reponav.shard_chunks WHERE starts_with(location, $1) AND part = 0 RETURNING 1", [repoPrefix(repo)]);
    await this.db.query('DELETE FROM reponav.shard_chunks WHERE starts_with(location, $1)', [repoPrefix(repo)]);
    return result.rowCount ?? 0;
  }

  async deleteCommit(repo: string, commit: string): Promise<number> {
    const result = await this.db.query('DELETE FROM reponav.shard_chunks WHERE starts_with(location, $1) RETURNING part', [commitPrefix(repo, commit)]);
    return result.rows.filter((r: { part: number }) => r.part === 0).length;
  }

  async check(): Promise<string | null> {
    await this.db.query('SELECT 1 FROM reponav.shard_chunks LIMIT 1', [], 0);
    return null;
  }
}
