/**
 * The first code of a `reponav` process (dist/cli/launcher.cjs, loaded by
 * main.ts): a hot command (hot-command-names.ts) runs from
 * dist/cli/hot-commands.cjs compiled with this command's V8 code cache
 * (code-cache.ts), kept under the reponav cache folder in `code-cache/`.
 * CommonJS, like the bundle, so that path loads no ES module at all (each
 * costs the ES module loader a few milliseconds of a ~100 ms start-up).
 *
 * Every other command, `--embedder` (its local model is an ES module loaded
 * by import(), which a vm.Script cannot do without an experimental API),
 * REPONAV_CODE_CACHE=0 and a bundle older than main.js (a later `tsc` build
 * replaced the modules but not the bundle: its code would be stale) leave the
 * process to main.js's ES modules.
 */
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
// eslint-disable-next-line entry-points/no-restricted-paths -- the cache folder alone: the index layer is in the bundle this loads
import { cacheDirectory } from '../../index/store/cache-location.js';
import { requireWithCodeCache } from './code-cache.js';
import { isHotCommand } from './hot-command-names.js';

/**
 * Runs `argv`'s hot command from the bundle beside `mainFile` (main.js) and
 * resolves true once it ran; false (having run nothing) when it is no hot
 * command or the bundle cannot serve it.
 */
export async function launchHotCommand(argv: string[], mainFile: string): Promise<boolean> {
  if (!isHotCommand(argv) || process.env.REPONAV_CODE_CACHE === '0') return false;
  if (argv.some((arg) => arg === '--embedder' || arg.startsWith('--embedder='))) return false;
  const bundle = join(dirname(mainFile), 'hot-commands.cjs');
  try {
    if (statSync(bundle).mtimeMs < statSync(mainFile).mtimeMs) return false;
  } catch {
    return false;
  }
  const cacheFile = join(cacheDirectory(), 'code-cache', `${argv[2]}-node${process.versions.node}-${process.arch}.bin`);
  const loaded = requireWithCodeCache(bundle, cacheFile);
  if (!loaded) return false;
  await (loaded.exports.run as (argv: string[]) => Promise<void>)(argv);
  return true;
}
