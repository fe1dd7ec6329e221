/**
 * The two rule layers no ignore file holds: the default folder rules
 * (VENDORED_DIRECTORIES as `name/` lines) and the `--include` / `--exclude`
 * globs stored with the index. See ignore-layers.ts for their precedence.
 */
import { newIgnore, type IgnoreLayer } from './ignore-layers.js';
import { VENDORED_DIRECTORIES } from './source-file.js';

let defaults: IgnoreLayer | undefined;

/** The default rules: one `name/` line per folder of VENDORED_DIRECTORIES (a folder of that name at any depth). */
export function defaultLayer(): IgnoreLayer {
  defaults ??= { base: '', rules: newIgnore().add([...VENDORED_DIRECTORIES].map((name) => `${name}/`)), file: '', source: 'default' };
  return defaults;
}

/**
 * The `--include` / `--exclude` globs as one layer (gitignore syntax,
 * relative to the root), or null when there are none. An include is a `!`
 * line after every exclude, so a path both name is indexed. Empty strings
 * are dropped (`--exclude ''` gives an empty list).
 */
export function optionLayer(include: readonly string[], exclude: readonly string[]): IgnoreLayer | null {
  const lines = [...exclude.filter(Boolean), ...include.filter(Boolean).map((glob) => `!${glob.replace(/^!/, '')}`)];
  if (lines.length === 0) return null;
  return { base: '', rules: newIgnore().add(lines), file: '', source: 'option' };
}
