#!/usr/bin/env node
// Bundles the `reponav` executable (see src/cli/startup/README.md): `tsc` emits one file
// per module, and a CLI process spent most of its start-up resolving, reading
// and compiling about 215 of them (zod alone 95). esbuild writes
// dist/cli/main.js as one ES module with the command modules and the parse
// worker as lazy chunks beside it, so `search` loads a handful of files.
//
// The chunks sit in dist/cli/ itself: code that finds files relative to its own
// module (`../../package.json`, `../../queries/`, `../../dist/web-ui/`,
// `./main.js`, `./parse-worker.js`) resolves the same from there as from tsc's
// output. The library entry (dist/reponav.js) stays tsc's output.
//
// Kept external: native and wasm packages that locate files beside themselves,
// and optional peers. Run by `npm run build` after tsc.
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(PROJECT, 'dist/cli');

const EXTERNAL = [
  'better-sqlite3',
  'sqlite-vec',
  'web-tree-sitter',
  '@vscode/tree-sitter-wasm',
  'tree-sitter-wasms',
  'openai',
  '@huggingface/transformers',
  'playwright-core',
  // The team server's PostgreSQL driver, job queue and metrics: loaded only by fleet/worker/serve, and kept
  // out of the bundle so a test can show that no other command resolves them (test/team/single-user.test.ts).
  'pg',
  'pg-boss',
  'prom-client',
  // 4.6 MB of BPE ranks, loaded only when a model reply carries no token usage (src/llm/local-tokens.ts).
  'gpt-tokenizer',
];

/**
 * zod's 60-odd message locales are half of its code and the CLI only ever uses
 * English (zod registers `en` itself): `z.locales` keeps `en` alone here.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), '../locales/en.js'), namespace: 'zod-en' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * src/zod-mini.ts (the only zod reponav's own code imports) is built on its
 * own into dist/cli/zod-mini.js and imported from there: in the shared build,
 * the chainable zod that the MCP SDK imports keeps all of zod's core alive in
 * the chunk both use (~300 KB that every `search`, `symbols`, `find` and
 * `view` process would load); built alone it keeps what its names reach.
 */
const ZOD_MINI = join(PROJECT, 'src/zod-mini.ts');
const zodMiniApart = {
  name: 'zod-mini-apart',
  setup(build) {
    build.onResolve({ filter: /[\\/]zod-mini\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')) === ZOD_MINI ? { path: './zod-mini.js', external: true } : undefined,
    );
  },
};

// Chunks of an earlier build would pile up (their names carry a content hash).
for (const name of readdirSync(OUT)) if (name.startsWith('chunk-')) rmSync(join(OUT, name));

const common = {
  absWorkingDir: PROJECT,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  // A map beside each file (left out of the npm package by package.json "files"), read only when a
  // command crashes: src/cli/crash-stack.ts maps that stack's frames to src/. The checkout has the sources.
  sourcemap: 'linked',
  sourcesContent: false,
  minify: process.env.BUNDLE_MINIFY === '1',
  logLevel: 'warning',
};

await build({ ...common, entryPoints: { 'zod-mini': ZOD_MINI }, outdir: OUT });

await build({
  ...common,
  entryPoints: { main: 'src/cli/main.ts', 'parse-worker': 'src/index/write/parse-worker.ts' },
  outdir: OUT,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  external: EXTERNAL,
  // CommonJS dependencies bundled into an ES module still call require() for Node built-ins.
  banner: { js: "import { createRequire as __reponavRequire } from 'node:module'; const require = __reponavRequire(import.meta.url);" },
  plugins: [englishOnlyZod, zodMiniApart],
});

// The hot commands (src/cli/startup/hot-command-names.ts) again, as one CommonJS file that the launcher compiles
// with a V8 code cache (src/cli/startup/launcher.ts, code-cache.ts): Node.js 20 hands cached code only to a
// script, and esbuild splits only ES modules. The launcher is CommonJS too, so that path loads no ES
// module. import.meta.url becomes the file's own URL, so paths relative to it resolve as above. Built
// after main.js: main.js ignores a launcher or bundle older than itself (a later `tsc` build).
await build({
  ...common,
  entryPoints: { 'hot-commands': 'src/cli/startup/hot-main.ts', launcher: 'src/cli/startup/launcher.ts' },
  outdir: OUT,
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  external: EXTERNAL,
  define: { 'import.meta.url': '__reponavModuleUrl' },
  banner: { js: "var __reponavModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [englishOnlyZod],
});
