/**
 * Whatever tool an MCP session calls first, the index's upkeep afterwards is
 * what it is on the normal path: the calls after the first two take the
 * read-only freshness check (no refresh under the writer lock) and start no
 * scoring warm-up, and no index state is warmed twice. Work is counted, not
 * timed: the debug lines the index writes when it enters the locked refresh
 * and when it starts a warm-up (one per start, naming the state).
 *
 * The tree is a clean git work tree indexed by an earlier process, the usual
 * state an agent's server starts in; and the same tree with files whose parse
 * fails (every TypeScript file, its grammar broken): a session tries them once
 * more, then its calls leave them be.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IndexStore } from '../../src/index/store/index.js';
import type { Logger } from '../../src/logger.js';
import { openMcpService } from '../../src/mcp-server/mcp-service.js';
import { TOOL_NAMES, type ToolName } from '../../src/tools/tool-types.js';
import { call, connectInMemory } from './mcp-client.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';
import { fixtureGit } from './git-fixture.js';
import { brokenGrammars } from '../helpers/broken-grammars.js';

vi.mock('../../src/parse/grammar-loader.js', async (original) => (await import('../helpers/broken-grammars.js')).withBrokenGrammars(original));

/** Valid arguments for every tool (a tool added without an entry fails to compile). */
const FIRST_CALLS: Record<ToolName, Record<string, unknown>> = {
  search: { query: 'apply tax to the order total' },
  snippet_search: { query: 'receipt', top_k: 1 },
  semantic_search: { query: 'send the receipt' },
  list_symbols: { file: 'web/src/api-client.ts' },
  find_class: { name: 'ApiClient' },
  find_function: { name: 'NewStore' },
  find_references: { name: 'send_receipt' },
  find_code_snippet: { text: 'http.ListenAndServe' },
  regex_search: { pattern: 'ListenAndServe\\(' },
  view_code: { file: 'cmd/server/main.go', start: 12, end: 13 },
  list_files: { path: 'shop' },
  repo_map: { budget_tokens: 400 },
  changed_files: {},
  diff: { file: 'shop/models.py', from: 'HEAD~1', to: 'HEAD' },
  file_history: { file: 'shop/models.py' },
  blame_lines: { file: 'shop/models.py', start: 1 },
  index_status: {},
  reindex: {},
};

/** The calls after the first one: what an agent asks next, repeated. */
const NEXT_CALLS: [ToolName, Record<string, unknown>][] = [
  ['find_function', { name: 'NewStore' }],
  ['search', { query: 'order total tax' }],
  ['snippet_search', { query: 'receipt', top_k: 2 }],
  ['find_function', { name: 'send_receipt' }],
  ['search', { query: 'store orders server' }],
];

/** Calls after this many (the first call and the first next one) must cost no upkeep. */
const SETTLING_CALLS = 2;

interface Upkeep {
  /** Per call: refreshes under the writer lock entered and warm-ups started during it (and its warm-up). */
  locked: number[];
  warmUps: number[];
  /** The index state of every warm-up started. */
  warmedStates: string[];
}

/** A logger that counts upkeep and lets the test wait for a started warm-up to end. */
function upkeepLogger(): { logger: Logger; lines: string[]; settled(): Promise<void> } {
  const lines: string[] = [];
  let started = 0;
  let ended = 0;
  let wake: (() => void) | null = null;
  const debug = (message: string) => {
    lines.push(message);
    if (/^scoring warm-up of index state \S+ started$/.test(message)) started++;
    if (message.startsWith('scoring caches warmed:') || message.startsWith('scoring warm-up stopped:')) {
      ended++;
      wake?.();
    }
  };
  return {
    logger: { debug, info() {}, warn() {}, error() {} },
    lines,
    async settled() {
      while (ended < started) await new Promise<void>((resolve) => (wake = resolve));
    },
  };
}

async function session(copy: FixtureCopy, first: ToolName): Promise<Upkeep> {
  const log = upkeepLogger();
  const service = await openMcpService({ repositories: [{ path: copy.root, indexPath: copy.indexPath }], logger: log.logger, tools: { include: [...TOOL_NAMES] } });
  const connection = await connectInMemory(service);
  const upkeep: Upkeep = { locked: [], warmUps: [], warmedStates: [] };
  try {
    for (const [name, args] of [[first, FIRST_CALLS[first]] as const, ...NEXT_CALLS]) {
      const before = log.lines.length;
      const result = await call(connection.client, name, args);
      expect(result.isError, `${name}: ${result.text}`).toBe(false);
      // The warm-up a call started belongs to that call's upkeep: wait for it (an event, not a timer).
      await log.settled();
      const lines = log.lines.slice(before);
      upkeep.locked.push(lines.filter((l) => l.endsWith('under the writer lock')).length);
      const starts = lines.flatMap((l) => /^scoring warm-up of index state (\S+) started$/.exec(l)?.[1] ?? []);
      upkeep.warmUps.push(starts.length);
      upkeep.warmedStates.push(...starts);
    }
  } finally {
    await connection.close();
    await service.close();
  }
  return upkeep;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe.each([
  ['a clean tree', false],
  ['a tree whose TypeScript files fail to parse', true],
])('the first call of an MCP session leaves later calls on the normal path: %s', (_, failing) => {
  let copy: FixtureCopy;
  let normal: Upkeep;

  beforeAll(async () => {
    if (failing) brokenGrammars.add('typescript');
    copy = copyFixture();
    fixtureGit(copy.root, 'init', '-q');
    fixtureGit(copy.root, 'add', '.');
    fixtureGit(copy.root, 'commit', '-qm', 'Add the shop');
    writeFileSync(join(copy.root, 'shop/notes.py'), 'def note() -> None:\n    pass\n');
    fixtureGit(copy.root, 'add', '.');
    fixtureGit(copy.root, 'commit', '-qm', 'Add notes');
    // An earlier process indexed the clean tree.
    const earlier = await openMcpService({ repositories: [{ path: copy.root, indexPath: copy.indexPath }] });
    const connection = await connectInMemory(earlier);
    expect((await call(connection.client, 'search', { query: 'tax' })).isError).toBe(false);
    await connection.close();
    await earlier.close();
    const store = IndexStore.open(copy.indexPath);
    // The condition this case is about: TypeScript files indexed as failed parses (none on the clean tree).
    expect(store.failedFiles().length > 0).toBe(failing);
    store.close();
    normal = await session(copy, 'find_function');
  });
  afterAll(() => {
    brokenGrammars.clear();
    copy?.cleanup();
  });

  it('on the normal path, the calls after the first cost no upkeep', () => {
    expect(sum(normal.locked.slice(SETTLING_CALLS))).toBe(0);
    expect(sum(normal.warmUps.slice(SETTLING_CALLS))).toBe(0);
  });

  it.each(TOOL_NAMES.map((name) => [name]))('%s as the first call', async (first) => {
    const upkeep = await session(copy, first);
    const summary = JSON.stringify({ first, upkeep, normal });
    // The calls after the settling ones: no locked refresh and no warm-up, as on the normal path.
    expect(upkeep.locked.slice(SETTLING_CALLS), summary).toEqual(normal.locked.slice(SETTLING_CALLS));
    expect(upkeep.warmUps.slice(SETTLING_CALLS), summary).toEqual(normal.warmUps.slice(SETTLING_CALLS));
    // The whole session: no more than the normal path's (reindex's own run under the lock aside).
    const own = first === 'reindex' ? 1 : 0;
    expect(sum(upkeep.locked), summary).toBeLessThanOrEqual(sum(normal.locked) + own);
    expect(sum(upkeep.warmUps), summary).toBeLessThanOrEqual(sum(normal.warmUps) + own);
    // Never a state warmed twice.
    expect(new Set(upkeep.warmedStates).size, summary).toBe(upkeep.warmedStates.length);
  });
});
