/**
 * One search of a fixed issue-like text, run in idle time by long-lived
 * processes after the index's scoring warm-up (an IdleWarmer, see
 * index/scoring-warmup.ts).
 *
 * Why: the first search on an index state builds what every later search
 * reuses — the documentation corpus (doc-search.ts, read back from its cache
 * file or built), the file-level documents, the path priors and repository
 * layout — and runs the pipeline's code before V8 has compiled it. On yt-dlp
 * that made an MCP server's first issue text cost ~2x the CPU of the next
 * (264–310 ms against 150–160 ms with this search run before it). All of it
 * is per-state caches that any search would fill the same way, so no answer
 * changes; the result is thrown away.
 */
import type { IndexStore } from '../index/index.js';
import { searchRepository } from '../retrieve/index.js';
import { renderSearchResult } from './render-search-result.js';

/**
 * Written for this purpose (no repository's text): a title, prose, a quoted
 * message, a command line with a file name, a traceback and a how-to
 * question, so that each evidence stage of the pipeline runs once.
 */
const WARM_TEXT = [
  'Crash when loading the configuration file after the last update',
  '',
  'Running `tool --config settings.json` fails with "could not parse the value of option" on start.',
  '',
  'Traceback (most recent call last):',
  '  File "main.py", line 10, in main',
  '    run(options)',
  '  File "config/loader.py", line 42, in load_config',
  '    value = int(raw_value)',
  "ValueError: invalid literal for int() with base 10: 'none'",
  '',
  'Expected the default to be used as before. How do I configure the default value?',
].join('\n');

/**
 * Searches {@link WARM_TEXT} on `store` and renders the scaffold and the JSON
 * answer, discarding both: fills the per-state caches a first search would
 * fill (see the module comment). Never throws for an empty index.
 */
export async function warmSearch(store: IndexStore): Promise<void> {
  const result = await searchRepository(store, WARM_TEXT);
  renderSearchResult(store, result, 'scaffold');
  renderSearchResult(store, result, 'json');
}
