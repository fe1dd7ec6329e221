import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hasBinaryExtension, type RepositorySource } from './sources/index.js';

/** At most this many left-out files are looked at: a lookup's miss must stay cheap on a tree with a large node_modules/. */
export const MAX_LEFT_OUT_FILES = 5000;

/** A left-out file that names what a lookup asked for, and the rule that leaves it out. */
export interface LeftOutMention {
  path: string;
  rule: string | null;
}

/**
 * Left-out files (by a rule: ignored, vendored, excluded) whose name or text
 * holds the last word of `name` (`Cart.checkout` → `checkout`) as a whole
 * word, up to `limit`: why a lookup that found nothing may have missed it.
 * Working trees only (a commit's left-out files are not on disk); reads
 * files no larger than `maxFileBytes` among the first MAX_LEFT_OUT_FILES.
 */
export function leftOutMentions(source: RepositorySource, maxFileBytes: number, name: string, limit = 3): LeftOutMention[] {
  if (source.mode !== 'worktree' || !source.leftOutFiles) return [];
  const word = name.split(/[^\w$]+/).filter(Boolean).pop();
  if (!word) return [];
  const pattern = new RegExp(`(?<![\\w$])${word.replace(/\$/g, '\\$')}(?![\\w$])`);
  const found: LeftOutMention[] = [];
  for (const path of source.leftOutFiles(MAX_LEFT_OUT_FILES)) {
    if (found.length >= limit) break;
    if (hasBinaryExtension(path)) continue;
    let hit = pattern.test(path.slice(path.lastIndexOf('/') + 1));
    if (!hit) {
      try {
        const absolute = join(source.root, path);
        if (statSync(absolute).size <= maxFileBytes) hit = pattern.test(readFileSync(absolute, 'utf8'));
      } catch {
        hit = false; // gone or unreadable since the walk: nothing to say about it
      }
    }
    if (hit) found.push({ path, rule: source.skipRule?.(path) ?? null });
  }
  return found;
}
