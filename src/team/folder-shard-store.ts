/**
 * The shared-folder shard store: one file per shard under a root folder that
 * every worker and server mounts. Uploads and downloads go to a temporary
 * name in the same folder and are renamed into place, so a reader never sees
 * a half-written file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readdir, rename, rm, statfs } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { ReponavError } from '../errors.js';
import { checksumMismatch, commitPrefix, repoPrefix, type ShardStore, type StoredShard } from './shard-store.js';

/** Copies `from` to `to` through a temporary file renamed into place; returns the bytes' SHA-256 and size. */
async function copyAtomically(from: string, to: string): Promise<StoredShard & { commit(): Promise<void>; abort(): Promise<void> }> {
  await mkdir(dirname(to), { recursive: true });
  const temp = `${to}.part-${randomBytes(4).toString('hex')}`;
  const hash = createHash('sha256');
  let sizeBytes = 0;
  const digest = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(createReadStream(from), digest, createWriteStream(temp, { flush: true }));
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return {
    sizeBytes,
    sha256: hash.digest('hex'),
    commit: () => rename(temp, to),
    abort: () => rm(temp, { force: true }),
  };
}

/** Shards as files under `root`. */
export class FolderShardStore implements ShardStore {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  get description(): string {
    return `folder:${this.root}`;
  }

  private pathOf(location: string): string {
    const path = resolve(this.root, location);
    if (!path.startsWith(this.root + sep)) throw new ReponavError('BAD_INPUT', `Shard location '${location}' leaves the store folder.`);
    return path;
  }

  async put(localPath: string, location: string): Promise<StoredShard> {
    const copy = await copyAtomically(localPath, this.pathOf(location));
    await copy.commit();
    return { sizeBytes: copy.sizeBytes, sha256: copy.sha256 };
  }

  async get(location: string, sha256: string, destPath: string): Promise<void> {
    const copy = await copyAtomically(this.pathOf(location), destPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new ReponavError('INDEX_MISSING', `Shard ${location} is missing from ${this.description}.`);
      throw error;
    });
    if (copy.sha256 !== sha256) {
      await copy.abort();
      throw checksumMismatch(location, sha256, copy.sha256);
    }
    await copy.commit();
  }

  async delete(location: string): Promise<void> {
    await rm(this.pathOf(location), { force: true });
  }

  async deleteRepo(repo: string): Promise<number> {
    const dir = this.pathOf(repoPrefix(repo));
    const files = await readdir(dir).catch(() => [] as string[]);
    await rm(dir, { recursive: true, force: true });
    return files.filter((f) => f.endsWith('.db')).length;
  }

  async deleteCommit(repo: string, commit: string): Promise<number> {
    const dir = this.pathOf(repoPrefix(repo));
    // Uploads in progress (`.part-` files) of the commit go too: they hold the same bytes.
    const name = commitPrefix(repo, commit).slice(repoPrefix(repo).length);
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.startsWith(name));
    await Promise.all(files.map((f) => rm(this.pathOf(`${repoPrefix(repo)}${f}`), { force: true })));
    return files.filter((f) => f.endsWith('.db')).length;
  }

  /** Bytes an unprivileged writer may still use on the store's file system. */
  async freeBytes(): Promise<number> {
    const stats = await statfs(this.root);
    return stats.bavail * stats.bsize;
  }

  async check(): Promise<string | null> {
    try {
      await mkdir(this.root, { recursive: true });
      await access(this.root, constants.R_OK | constants.W_OK);
      return null;
    } catch (error) {
      return `${this.root} cannot be read and written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    }
  }
}
