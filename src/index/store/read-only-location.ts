/**
 * Whether the folder an index lives in (or would be created in) can be
 * written: a cache on a read-only mount, or a folder this user may not write.
 * Asked before opening, because what SQLite and Node say afterwards misleads
 * (Node's recursive mkdir on a read-only file system fails with ENOENT, and
 * SQLite opens the file read-only without saying so). access(2) reports a
 * read-only mount as EROFS even to root, so the answer holds for every user.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { displayPath } from '../sources/index.js';

/** Why the nearest existing folder holding `indexPath` cannot be written (`… is on a read-only file system`), or null when it can. */
export function unwritableFolder(indexPath: string): string | null {
  let folder = dirname(indexPath);
  while (!existsSync(folder)) {
    const up = dirname(folder);
    if (up === folder) return null;
    folder = up;
  }
  try {
    accessSync(folder, constants.W_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EROFS' ? 'is on a read-only file system' : `is not writable by this user (${code ?? 'access denied'})`;
    return `the folder ${displayPath(folder)} ${why}`;
  }
}
