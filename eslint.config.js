/**
 * ESLint (flat config) for src/, test/, web/ and the scripts. A small rule set,
 * each rule here for a reason this project has met:
 *
 * - typescript-eslint's `recommended` (syntax only, no type information, so a
 *   lint of the whole tree takes seconds): unused names, `@ts-ignore`, and the
 *   like. tsc (`npm run typecheck`) does the type checking.
 * - `import-x/no-cycle`: no two modules import each other, directly or
 *   through others (cycles made the eval ↔ agents wiring order-dependent).
 * - `import-x/no-restricted-paths` from LAYERS below: a folder imports only
 *   the folders beneath it in the pipeline, never one above or beside it; the
 *   parts of src/index likewise (INDEX_PARTS). docs/architecture.md draws the
 *   same graph.
 * - `no-console`, and no `process.stdout.write` or `process.exit`, in library
 *   code (all of src/ but src/cli/): stdout belongs to the caller (stdio MCP
 *   owns it) and so does the process; library code logs through the injected
 *   Logger and throws typed errors.
 * - zod: one dialect, `zod/mini`, imported one way, through src/zod-mini.ts;
 *   the chainable `zod` nowhere (see src/cli/startup/README.md).
 * - entry points (a warning, kept at zero): code outside a folder imports it
 *   only through one of its index.ts files, so each folder's public surface
 *   is written down in one place. Tests may reach inside.
 */
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * Which folders of src/ each folder may import (besides itself and the shared
 * src/errors.ts, src/logger.ts and src/plural.ts). Anything not listed is forbidden, so a new
 * upward or sideways import fails the lint. The package's entries (src/reponav.ts
 * and its subpaths) may import every folder; no folder may import them.
 */
const LAYERS = {
  parse: [],
  budget: [],
  llm: [],
  index: ['parse'],
  retrieve: ['parse', 'index', 'llm'],
  scaffold: ['parse', 'index', 'retrieve', 'budget'],
  tools: ['parse', 'index', 'retrieve', 'scaffold', 'budget'],
  sandbox: ['parse', 'index'],
  'mcp-server': ['parse', 'index', 'retrieve', 'scaffold', 'tools'],
  'agents/ask': ['parse', 'index', 'budget', 'llm', 'retrieve', 'scaffold', 'tools'],
  'agents/localize': ['parse', 'index', 'budget', 'llm', 'retrieve', 'scaffold', 'tools', 'sandbox', 'agents/ask'],
  eval: ['parse', 'index', 'llm', 'retrieve', 'scaffold', 'tools'],
  'http-api': ['parse', 'index', 'budget', 'llm', 'retrieve', 'scaffold', 'tools', 'mcp-server', 'agents/ask', 'agents/localize', 'eval'],
  team: ['parse', 'index', 'budget', 'retrieve', 'scaffold', 'tools', 'mcp-server', 'http-api'],
  cli: ['parse', 'index', 'budget', 'llm', 'retrieve', 'scaffold', 'tools', 'sandbox', 'mcp-server', 'agents/ask', 'agents/localize', 'eval', 'http-api', 'team'],
};
const FOLDERS = Object.keys(LAYERS);

/**
 * The parts of src/index, bottom up, and which other parts each may import: a
 * tree's files (sources), the SQLite store and its schema (store), the write
 * path with its parse pool (write), lexical scoring (lexical) and the other
 * reads of a built index (queries). The files at src/index's top
 * (repository-index.ts and the modules it is cut into, commit-index-pool.ts,
 * index.ts) may import every part;
 * no part imports them. docs/architecture.md draws the same.
 */
const INDEX_PARTS = {
  sources: [],
  store: ['sources'],
  write: ['sources', 'store'],
  lexical: ['sources', 'store'],
  queries: ['sources', 'store'],
};
const INDEX_PART_NAMES = Object.keys(INDEX_PARTS);
/** src/index's own top-level modules (tests aside). */
const INDEX_TOP = readdirSync('src/index')
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => `./src/index/${file}`);
/** The package's entry files (package.json "exports"): `reponav`, `reponav/mcp`, `reponav/agents`, `reponav/dense`, `reponav/team`. */
const ENTRIES = ['./src/reponav.ts', './src/reponav-mcp.ts', './src/reponav-agents.ts', './src/reponav-dense.ts', './src/reponav-team.ts'];

const layerZones = [
  ...FOLDERS.map((folder) => ({
    target: `./src/${folder}`,
    from: [...FOLDERS.filter((other) => other !== folder && !LAYERS[folder].includes(other)).map((other) => `./src/${other}`), ...ENTRIES],
    message: `src/${folder} may import only ${LAYERS[folder].length ? LAYERS[folder].map((f) => `src/${f}`).join(', ') : 'nothing above it'} (see LAYERS in eslint.config.js and docs/architecture.md).`,
  })),
  {
    target: ['./src/errors.ts', './src/logger.ts', './src/plural.ts'],
    from: FOLDERS.map((folder) => `./src/${folder}`),
    message: 'src/errors.ts, src/logger.ts and src/plural.ts are the shared base: they import no folder.',
  },
];

/** The same for the parts of src/index (not for their tests, which may drive the whole index). */
const indexPartZones = INDEX_PART_NAMES.map((part) => ({
  target: `./src/index/${part}`,
  from: [...INDEX_PART_NAMES.filter((other) => other !== part && !INDEX_PARTS[part].includes(other)).map((other) => `./src/index/${other}`), ...INDEX_TOP],
  message: `src/index/${part} may import only ${INDEX_PARTS[part].length ? INDEX_PARTS[part].map((p) => `src/index/${p}`).join(', ') : 'nothing else in src/index'} (see INDEX_PARTS in eslint.config.js and docs/architecture.md).`,
}));

/** The folders entered through their index.ts: those of LAYERS (agents/ holds two, ask/ and localize/). */
const UNITS = Object.keys(LAYERS);

/** Every index.ts under src/<unit>, as paths relative to that folder. */
function indexFiles(unit) {
  return readdirSync(`src/${unit}`, { recursive: true })
    .filter((file) => file === 'index.ts' || file.endsWith('/index.ts'))
    .map((file) => `./${file}`);
}

const entryZones = [
  ...UNITS.map((unit) => ({
    target: ['./src/*.ts', ...UNITS.filter((other) => other !== unit).map((other) => `./src/${other}`)],
    from: `./src/${unit}`,
    // Other layers enter src/index through src/index/index.ts alone, not through its parts.
    except: unit === 'index' ? ['./index.ts'] : indexFiles(unit),
    message: `Import src/${unit} through its index.ts (add the name there if it is missing).`,
  })),
  ...INDEX_PART_NAMES.map((part) => ({
    target: [...INDEX_TOP, ...INDEX_PART_NAMES.filter((other) => other !== part).map((other) => `./src/index/${other}`)],
    from: `./src/index/${part}`,
    except: ['./index.ts'],
    message: `Import src/index/${part} through its index.ts (add the name there if it is missing).`,
  })),
];

/**
 * Every import of zod but src/zod-mini.ts's: the chainable `zod` (and `zod/v4`, `zod/v4/classic`) is
 * not used, and `zod/mini` and zod's core types come through src/zod-mini.ts, the module the CLI
 * bundle builds apart.
 */
const ZOD_ONE_WAY = {
  group: ['zod', 'zod/*'],
  message:
    'reponav writes its schemas with zod/mini, imported through src/zod-mini.ts (add the name there if it is missing); the chainable zod is not used (src/cli/startup/README.md).',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/fixtures/**', 'test/web/fixtures/**', 'src/**/__golden__/**', 'sample/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    plugins: { 'import-x': importX },
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        performance: 'readonly',
      },
    },
    settings: {
      // import-x must parse the .ts files it follows (no-cycle reads each dependency's imports).
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['tsconfig.json', 'web/tsconfig.json'], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      // `any` is used deliberately at a few heterogeneous seams (the tool registry); tsc's strict mode covers the rest.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/index/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    plugins: { 'index-parts': { rules: { 'no-restricted-paths': importX.rules['no-restricted-paths'] } } },
    rules: { 'index-parts/no-restricted-paths': ['error', { zones: indexPartZones }] },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/cli/**'],
    rules: {
      'no-console': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.type='MemberExpression'][object.object.name='process'][object.property.name='stdout'][property.name='write']",
          message: 'Library code does not write to stdout (the caller owns it; stdio MCP speaks on it): return the text, take a writable, or log through the injected Logger. Only src/cli/ writes to stdout.',
        },
        {
          selector: "MemberExpression[object.name='process'][property.name=/^exit(Code)?$/]",
          message: 'Library code does not end the process or set its exit code: throw a ReponavError with a code; src/cli/ maps it to an exit code.',
        },
      ],
    },
  },
  {
    // One zod dialect, imported one way (src/cli/startup/README.md): zod/mini through src/zod-mini.ts.
    files: ['src/**/*.ts', 'test/**/*.ts'],
    ignores: ['src/zod-mini.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ZOD_ONE_WAY] }] },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/**/__fixtures__/**'],
    plugins: { 'entry-points': { rules: { 'no-restricted-paths': importX.rules['no-restricted-paths'] } } },
    rules: { 'entry-points/no-restricted-paths': ['warn', { zones: entryZones }] },
  },
);
