/**
 * One call resolution behind every call edge: over the find_references fixture
 * repositories (test/fixtures/references/<language>/), the web view's Symbols
 * page (list_symbols' machine form), the scaffold's invokes / invoked-by and
 * find_references must name the same same-file callers for every definition.
 * The edges are kept in test/golden/expected/call-edges/<language>.txt.
 *
 * To accept new output after an intended change, run
 *   UPDATE_GOLDEN=1 npx vitest run test/golden
 * then review the diff by eye: the goldens are the spec.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createWebToolRegistry } from '../../src/http-api/web-tools.js';
import { sameFileCalls } from '../../src/scaffold/same-file-calls.js';
import { RepositorySet } from '../../src/tools/repository-set.js';
import { callTool, createToolRegistry } from '../../src/tools/tool-registry.js';
import { expectGolden } from './golden-file.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/references/', import.meta.url));
const EXPECTED = fileURLToPath(new URL('./expected/call-edges/', import.meta.url));

interface WebSymbol {
  qualifiedName: string;
  invokedBy: string[];
}

interface ReferencesJson {
  references: Array<{ caller: string; resolution: string }>;
}

/** Callers per definition (`path:qualifiedName`), as the web view, the scaffold and find_references see them. */
async function edgesOf(language: string): Promise<{ web: string[]; scaffold: string[]; references: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'reponav-edges-'));
  const root = join(dir, language);
  cpSync(join(FIXTURES, language), root, { recursive: true });
  const repositories = await RepositorySet.open([{ path: root, indexPath: join(dir, 'index.db') }]);
  try {
    const repository = repositories.select();
    await repository.refresh();
    const store = repository.index.store;
    const web = createWebToolRegistry();
    const tools = createToolRegistry();
    const edges = { web: [] as string[], scaffold: [] as string[], references: [] as string[] };
    for (const file of store.files()) {
      const symbols = store.symbolsOf(file.path);
      if (symbols.length === 0) continue;
      const outline = await callTool(web, 'list_symbols', { file: file.path }, { repositories });
      for (const s of (outline.data as { symbols: WebSymbol[] }).symbols) {
        for (const caller of s.invokedBy) edges.web.push(`${file.path}: ${caller} -> ${s.qualifiedName}`);
      }
      const graph = sameFileCalls(symbols, { language: file.language, text: store.fileText(file.path) });
      for (const [target, neighbours] of graph) {
        for (const caller of neighbours.invokedBy) edges.scaffold.push(`${file.path}: ${caller} -> ${target}`);
      }
      for (const target of new Set(symbols.map((s) => s.qualifiedName))) {
        const result = await callTool(tools, 'find_references', { name: `${file.path}:${target}`, max_results: 500 }, { repositories });
        const callers = (result.data as ReferencesJson).references.filter((r) => r.resolution === 'same file').map((r) => r.caller);
        for (const caller of new Set(callers)) edges.references.push(`${file.path}: ${caller} -> ${target}`);
      }
    }
    const sorted = (list: string[]) => [...new Set(list)].sort();
    return { web: sorted(edges.web), scaffold: sorted(edges.scaffold), references: sorted(edges.references) };
  } finally {
    await repositories.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const fixtures = readdirSync(FIXTURES).sort();

describe('call edges: the web view, the scaffold and find_references agree', () => {
  for (const language of fixtures) {
    it(`${language}: one resolution, kept in expected/call-edges/${language}.txt`, async () => {
      const edges = await edgesOf(language);
      expect(edges.web).toEqual(edges.references);
      // The scaffold leaves out self-calls (recursion); every other edge is the same.
      expect(edges.scaffold).toEqual(edges.references.filter((e) => !/: (\S+) -> \1$/.test(e)));
      expectGolden(join(EXPECTED, `${language}.txt`), `${edges.references.join('\n')}\n`);
    });
  }
});
