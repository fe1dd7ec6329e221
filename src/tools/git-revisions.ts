/**
 * What the change tools share: the revision arguments, which two sides a
 * call compares (working tree, a commit's parent, two revisions), and the
 * symbols of one file on both sides.
 */
import * as z from '../zod-mini.js';
import { ReponavError } from '../errors.js';
import { fileAt, parentOf, resolveRevision, symbolsOfBytes, type ChangedPath, type FileSide, type GitContext, type IndexStore } from '../index/index.js';
import { described } from './tool-args.js';
import { symbolChanges, type SymbolChange } from './symbol-changes.js';

/** A revision argument: a commit id, branch, tag or `HEAD~2`-style expression. */
export const revisionArg = (name: string, description: string) =>
  described(
    z.optional(
      z.string().check(
        z.minLength(1, `${name} must not be empty`),
        z.maxLength(200, `${name} is limited to 200 characters`),
        z.refine((value) => !value.startsWith('-'), { message: `${name} must not start with '-'` }),
      ),
    ),
    description,
  );

/**
 * The two sides a call compares. `before` is a commit id; `after` a commit id
 * or null for the working tree. `kind` says which case it is.
 */
export interface ComparedSides {
  kind: 'worktree-head' | 'worktree' | 'revisions';
  before: string | null;
  after: string | null;
  /** For messages: `HEAD (abc1234) → working tree`. */
  label: string;
}

function short(commit: string): string {
  return commit.slice(0, 10);
}

/**
 * Which sides `from` / `to` name. Working tree: neither → HEAD and the
 * working tree (staged, unstaged, untracked); `from` only → that revision and
 * the working tree. Commit mode: neither → the commit's parent and the
 * commit; `from` only → that revision and the commit. Both → the two revisions.
 */
export function comparedSides(context: GitContext, from: string | undefined, to: string | undefined): ComparedSides {
  if (to !== undefined && from === undefined) throw new ReponavError('BAD_INPUT', 'give from together with to (to alone has nothing to compare against).');
  if (from !== undefined && to !== undefined) {
    const before = resolveRevision(context, from);
    const after = resolveRevision(context, to);
    return { kind: 'revisions', before, after, label: `${from} (${short(before)}) → ${to} (${short(after)})` };
  }
  if (context.workTree === null) {
    const after = context.commit!;
    const before = from !== undefined ? resolveRevision(context, from) : parentOf(context, after);
    if (before === null) throw new ReponavError('BAD_INPUT', `Commit ${short(after)} has no parent; give from to compare it with another revision.`);
    return { kind: 'revisions', before, after, label: `${from ?? 'parent'} (${short(before)}) → ${short(after)}` };
  }
  if (from !== undefined) {
    const before = resolveRevision(context, from);
    return { kind: 'worktree', before, after: null, label: `${from} (${short(before)}) → working tree` };
  }
  const head = resolveHead(context);
  return { kind: 'worktree-head', before: head, after: null, label: head ? `HEAD (${short(head)}) → working tree` : 'no commit yet → working tree' };
}

function resolveHead(context: GitContext): string | null {
  try {
    return resolveRevision(context, 'HEAD');
  } catch {
    return null; // a repository with no commit yet: everything is new
  }
}

/** The revision each side of one changed file is read at (`':'` the staged version, null the working tree; undefined: absent). */
function readSides(change: ChangedPath, sides: ComparedSides): { before: string | null | undefined; after: string | null | undefined } {
  const after = change.status === 'deleted' ? undefined : change.area === 'staged' ? ':' : sides.after;
  if (change.status === 'added' && change.area !== 'unstaged') return { before: undefined, after };
  const before = change.area === 'unstaged' ? ':' : sides.before ?? undefined;
  return { before, after };
}

/** The symbol changes of one changed file (null when neither side could be read). */
export async function symbolChangesOf(context: GitContext, store: IndexStore, change: ChangedPath, sides: ComparedSides): Promise<SymbolChange[] | null> {
  const at = readSides(change, sides);
  const read = async (revision: string | null | undefined, path: string): Promise<FileSide | null> => {
    if (revision === undefined) return null;
    const bytes = fileAt(context, revision, path);
    return bytes ? symbolsOfBytes(store, path, bytes) : null;
  };
  const before = await read(at.before, change.oldPath ?? change.path);
  const after = await read(at.after, change.path);
  if (!before && !after) return null;
  return symbolChanges(before, after);
}
