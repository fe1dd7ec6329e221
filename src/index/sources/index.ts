/**
 * The files a repository is read from: a working tree (with its ignore layers,
 * `git status` and the watcher that keeps the listing fresh) or a commit, git
 * history, path safety and how paths are shown. Nothing here touches the index
 * database.
 */
export { decodeFileText } from './decode-text.js';
export { displayPath, quotedPath } from './display-path.js';
export { findGitDir, GitCommitSource } from './git-commit-source.js';
export { type BlameLine, blameLines, type ChangeArea, type ChangedPath, changedPaths, type ChangeStatus, type CommitInfo, fileAt, fileDiff, fileLog, type GitContext, gitContextOf, historyPath, parentOf, resolveRevision } from './git-history.js';
export { closestPaths, editDistance, toRepositoryPath } from './path-guard.js';
export { compilePathPattern, MAX_PATTERN_LENGTH } from './path-pattern.js';
export { DEFAULT_MAX_FILE_BYTES, explainSkip, hasBinaryExtension, explainSkipOnDisk, type ListingDelta, looksBinary, recordSkip, type RepositorySource, sameIdentity, type SkipReason, type SourceFile, type SourceListing, VCS_DIRECTORIES, VENDORED_DIRECTORIES } from './source-file.js';
export { WorktreeSource } from './worktree-source.js';
