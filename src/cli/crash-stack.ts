/**
 * A crash report that points at src/: `npm run build` bundles the CLI
 * (scripts/bundle-cli.mjs) and writes a source map beside each file of
 * dist/cli/. Node applies source maps only with --enable-source-maps, which
 * would read every map at every start; this maps the frames of one stack
 * when a command crashes. Without the maps (the npm package leaves them out)
 * the stack is printed as it is.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * `stack` with each `file:///…/x.js:LINE:COLUMN` (an ES module) or
 * `/…/x.cjs:LINE:COLUMN` (the CommonJS bundle of the hot commands, see
 * startup/launcher.ts) that has a source map beside it replaced by its source position.
 */
export function sourceMappedStack(stack: string): string {
  const maps = new Map<string, SourceMap | null>();
  return stack.replace(/(file:\/\/[^\s()]+?\.js|(?<![^\s(])\/[^\s()]+?\.cjs):(\d+):(\d+)/g, (frame, where: string, line: string, column: string) => {
    const url = where.startsWith('file:') ? where : pathToFileURL(where).href;
    let map = maps.get(url);
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')));
      } catch {
        map = null;
      }
      maps.set(url, map);
    }
    const entry = map?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !('originalSource' in entry)) return frame;
    return `${fileURLToPath(new URL(entry.originalSource, url))}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}
