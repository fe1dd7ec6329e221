/**
 * One writer per index, across processes and within one; readers never take it.
 *
 * The lock is an exclusive SQLite transaction on a small side file
 * (`<index>.lock`), held for a whole indexing run. Why not a lock-file library
 * such as proper-lockfile: its locks are directories kept alive by an mtime
 * timer, so a writer killed with -9 blocks the next one until the lock goes
 * stale (5 s at least), and a writer whose event loop stalls longer than that
 * (a large synchronous transaction on a loaded machine) loses its lock to a
 * second writer. SQLite's locks are POSIX advisory locks the kernel drops the
 * moment the holding process dies, and SQLite also excludes two connections of
 * one process; better-sqlite3 is already a dependency.
 *
 * Beside it, `<index>.writer` (JSON) names the holder and its progress, for the
 * message a waiting process prints. The holder deletes it on release, so one
 * found by the next holder means the previous writer did not finish (killed,
 * crashed, power lost): the cue for an integrity check.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';

/** Who holds (or last held) an index's writer lock, and how far it got. */
export interface WriterInfo {
  pid: number;
  startedAt: number;
  done: number;
  total: number;
}

/** Options of a wait for the writer lock. */
export interface AcquireOptions {
  /** Called on each poll while another writer holds the lock (its info when readable). */
  onWait?: (holder: WriterInfo | null) => void;
  signal?: AbortSignal;
  /** Poll interval (ms); default 150. */
  pollMs?: number;
}

/** A held writer lock. */
export interface WriterLease {
  /** What the previous holder left behind when it did not release (it died mid-run), else null. */
  readonly unfinished: WriterInfo | null;
  /** Records progress for waiting processes (throttled to a few writes a second). */
  progress(done: number, total: number): void;
  /** Releases the lock (idempotent). */
  release(): void;
}

const NO_LEASE: WriterLease = { unfinished: null, progress() {}, release() {} };

/** The writer lock of the index at `indexPath`; `:memory:` indexes need none. */
export class WriterLock {
  private readonly lockPath: string;
  private readonly infoPath: string;

  constructor(readonly indexPath: string) {
    this.lockPath = `${indexPath}.lock`;
    this.infoPath = `${indexPath}.writer`;
  }

  private get inMemory(): boolean {
    return this.indexPath === ':memory:';
  }

  /** Takes the lock when it is free; null when another writer holds it. */
  tryAcquire(): WriterLease | null {
    if (this.inMemory) return NO_LEASE;
    const db = new Database(this.lockPath, { timeout: 0 });
    try {
      db.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return null;
      throw error;
    }
    return this.lease(db);
  }

  /** True when a writer holds the lock now (probes without taking it for longer than an instant); false when unknown. */
  isHeld(): boolean {
    if (this.inMemory) return false;
    let db: Database.Database | null = null;
    try {
      db = new Database(this.lockPath, { timeout: 0, fileMustExist: true });
      db.exec('BEGIN EXCLUSIVE');
      db.exec('ROLLBACK');
      return false;
    } catch (error) {
      return (error as { code?: string }).code?.startsWith('SQLITE_BUSY') ?? false;
    } finally {
      db?.close();
    }
  }

  /** Waits for the lock (polling, so the event loop keeps running), reporting the holder meanwhile. */
  async acquire(options: AcquireOptions = {}): Promise<WriterLease> {
    for (;;) {
      const lease = this.tryAcquire();
      if (lease) return lease;
      options.onWait?.(this.holder());
      if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 150));
    }
  }

  /** The current (or last unfinished) holder's info, or null when none is recorded or readable. */
  holder(): WriterInfo | null {
    try {
      const info = JSON.parse(readFileSync(this.infoPath, 'utf8')) as WriterInfo;
      return typeof info.pid === 'number' ? info : null;
    } catch {
      return null;
    }
  }

  private lease(db: Database.Database): WriterLease {
    const unfinished = this.holder();
    const info: WriterInfo = { pid: process.pid, startedAt: Date.now(), done: 0, total: 0 };
    let lastWrite = 0;
    const write = () => {
      lastWrite = Date.now();
      try {
        // Write-then-rename, so a reader never sees half a file.
        const tmp = `${this.infoPath}.${process.pid}`;
        writeFileSync(tmp, JSON.stringify(info));
        renameSync(tmp, this.infoPath);
      } catch {
        // Progress for waiters is a courtesy; a full disk must not fail the run here.
      }
    };
    write();
    let released = false;
    return {
      unfinished,
      progress: (done, total) => {
        info.done = done;
        info.total = total;
        if (Date.now() - lastWrite >= 250 || done === total) write();
      },
      release: () => {
        if (released) return;
        released = true;
        try {
          rmSync(this.infoPath, { force: true });
        } catch {
          // A read-only or vanished folder: the next writer takes a stale file for an unfinished run and checks the index once.
        }
        db.close(); // ends the transaction, so the lock is free only after the info is gone
      },
    };
  }
}
