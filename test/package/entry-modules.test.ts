/**
 * What each library entry loads (package.json "exports"), in the style of the
 * MCP SDK's barrel-clean test: `import('reponav')` must not pull in the MCP
 * SDK, the HTTP stack, the agents, the model clients, dense retrieval or
 * PostgreSQL, and each subpath loads only its own layer. Run on the built
 * `dist/` in a fresh Node.js process with bench/module-count-hook.mjs, which
 * logs every ES module the process loads.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './readme.js';

const work = mkdtempSync(join(tmpdir(), 'reponav-entries-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The module URLs `import(entry)` loads, relative to the project (`dist/…`, `node_modules/<package>/…`). */
function modulesOf(entry: string): string[] {
  const file = join(PROJECT_ROOT, 'dist', entry);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  const log = join(work, `${entry}.log`);
  const result = spawnSync(process.execPath, ['--import', join(PROJECT_ROOT, 'bench/module-count-hook.mjs'), '-e', `await import(${JSON.stringify(pathToFileURL(file).href)})`, '--input-type=module'], {
    env: { ...process.env, REPONAV_MODULE_LOG: log },
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  const root = pathToFileURL(PROJECT_ROOT).href + '/';
  return [...new Set(readFileSync(log, 'utf8').trim().split('\n'))].filter((url) => url.startsWith(root)).map((url) => url.slice(root.length));
}

/** The `dist/` folders and packages an entry loads. */
function layersOf(modules: string[]): { folders: Set<string>; packages: Set<string> } {
  const folders = new Set(modules.filter((m) => m.startsWith('dist/')).map((m) => m.split('/').slice(1, -1).join('/') || '.'));
  const packages = new Set(
    modules
      .filter((m) => m.startsWith('node_modules/'))
      .map((m) => m.split('/'))
      .map((parts) => (parts[1]!.startsWith('@') ? `${parts[1]}/${parts[2]}` : parts[1]!)),
  );
  return { folders, packages };
}

const HEAVY_FOLDERS = ['mcp-server', 'http-api', 'agents/ask', 'agents/localize', 'llm', 'team', 'eval', 'sandbox', 'cli'];
/** The embedders of dense retrieval (its fusion core is part of search). */
const EMBEDDERS = ['dist/retrieve/dense/create-embedder.js', 'dist/retrieve/dense/openai-embedder.js', 'dist/retrieve/dense/local-embedder.js'];
const HEAVY_PACKAGES = ['@modelcontextprotocol/server', '@modelcontextprotocol/node', 'hono', '@hono/node-server', 'openai', 'pg', 'pg-boss', 'sqlite-vec', '@huggingface/transformers'];

describe('library entries', () => {
  it('`reponav` loads index, search, scaffold and tools only', () => {
    const modules = modulesOf('reponav.js');
    const { folders, packages } = layersOf(modules);
    expect([...folders].filter((f) => HEAVY_FOLDERS.some((h) => f === h || f.startsWith(`${h}/`)))).toEqual([]);
    expect([...packages].filter((p) => HEAVY_PACKAGES.includes(p))).toEqual([]);
    expect(modules.filter((m) => EMBEDDERS.includes(m))).toEqual([]);
    // 286 at the time of writing (the index layer's five part entries and small modules such as the damage probe,
    // the long-query reduction, the path rules and the plural helper; 322 when the root entry also exported the MCP
    // server, agents and dense retrieval), 291 with the carried scoring corpus's three small modules (the full-text
    // log, FTS5's records, the postings patch), 293 with the search's tuning and hit-evidence modules split out of
    // search-repository.ts, 294 with the files-row log (file-row-changes.ts), 295 with the scoring corpus's tables
    // split out of postings-corpus.ts (corpus-tables.ts), 296 with the ranker identity an evaluation run records
    // (ranker-identity.ts; it loads the model only when called), 297 with the parse layer's wasm tier-up choice
    // (wasm-tiering.ts, node:v8 only), 299 with the refresh's indexing signal (indexing-signal.ts) and the file
    // resolution split out of repository-index.ts (resolve-file.ts): a rise past this bound means a heavy import
    // reached the root entry.
    expect(modules.length).toBeLessThanOrEqual(299);
  });

  it('`reponav/mcp` adds the MCP server, not the agents, model clients or PostgreSQL', () => {
    const { folders, packages } = layersOf(modulesOf('reponav-mcp.js'));
    expect(folders.has('mcp-server')).toBe(true);
    expect([...folders].filter((f) => ['agents/ask', 'agents/localize', 'llm', 'team', 'eval'].includes(f))).toEqual([]);
    expect([...packages].filter((p) => ['openai', 'pg', 'pg-boss'].includes(p))).toEqual([]);
  });

  it('`reponav/agents` adds the agents and model clients, not the MCP server or PostgreSQL', () => {
    const { folders, packages } = layersOf(modulesOf('reponav-agents.js'));
    expect(folders.has('agents/ask') && folders.has('llm')).toBe(true);
    expect([...folders].filter((f) => ['mcp-server', 'team', 'http-api'].includes(f))).toEqual([]);
    expect([...packages].filter((p) => ['@modelcontextprotocol/server', 'pg', 'pg-boss', 'openai'].includes(p))).toEqual([]);
  });

  it('`reponav/dense` adds dense retrieval, not the MCP server, the agents or PostgreSQL', () => {
    const { folders, packages } = layersOf(modulesOf('reponav-dense.js'));
    expect(folders.has('retrieve/dense') && folders.has('llm')).toBe(true);
    expect([...folders].filter((f) => ['mcp-server', 'agents/ask', 'agents/localize', 'team'].includes(f))).toEqual([]);
    expect([...packages].filter((p) => ['@modelcontextprotocol/server', 'pg', 'pg-boss'].includes(p))).toEqual([]);
  });
});
