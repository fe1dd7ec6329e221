/**
 * Verifying citations against the repository. Each cited span is re-read
 * through the index (view_code via callTool, exactly what an agent would
 * see): the file must be indexed, the range must lie inside it, and every
 * name the answer attributes to the span must occur in it as a word. A
 * citation written with a shortened path (`provider.py:10-20`) is resolved to
 * the indexed file it uniquely ends, preferring one where the names check out.
 *
 * Names are held to what the index defines (see {@link CitationChecker.nameProblem}):
 * `path:Name` claims that the file defines the name, so the index must
 * define it there as written; a qualified name of a repository class
 * (`Catalogue.find_by_isbn`) attached to a span or a path must be a
 * definition the index knows as written, somewhere in the repository (a call
 * of a real method is a true claim about the calling file). A bare name is a
 * call as often as a definition, so the text check decides.
 */
import { symbolsNamed, type IndexStore } from '../../index/index.js';
import type { SymbolKind } from '../../parse/index.js';
import { callTool, type ToolRegistry } from '../../tools/index.js';
import type { ToolContext } from '../../tools/index.js';
import type { ViewData } from '../../tools/index.js';
import { parseCitations, type ParsedCitation } from './citations.js';
import type { TraceCitation } from './trace-types.js';
import { countOf } from '../../plural.js';

/** Every kind the index stores (prose sections are not stored). */
const SYMBOL_KINDS: SymbolKind[] = ['class', 'interface', 'struct', 'enum', 'trait', 'type', 'module', 'function', 'method'];

/** Where citations are checked. */
export interface CitationEnvironment {
  registry: ToolRegistry;
  toolContext: ToolContext;
  repo?: string;
}

/** A citation occurrence with its verdict. */
export type CheckedCitation = ParsedCitation & { verdict: TraceCitation };

/** Re-reads spans through the index; results are cached per (path, range). */
export class CitationChecker {
  private readonly views = new Map<string, Promise<{ ok: true; data: ViewData } | { ok: false; reason: string }>>();
  private paths: string[] | null = null;

  constructor(private readonly env: CitationEnvironment) {}

  /** Every citation in `text` with its verdict, in order of occurrence. */
  async check(text: string): Promise<CheckedCitation[]> {
    const out: CheckedCitation[] = [];
    for (const c of parseCitations(text)) out.push({ ...c, verdict: c.pathOnly ? this.verifyPath(c) : await this.verify(c) });
    return out;
  }

  /** The verdict for a path named without lines: it must be an indexed file that holds the names attached to it. */
  verifyPath(c: Pick<ParsedCitation, 'text' | 'path' | 'names' | 'definition'>): TraceCitation {
    const base = { text: c.text, startLine: 0, endLine: 0, names: [...c.names] };
    const candidates = this.resolve(c.path);
    if (candidates.length === 0) return { ...base, path: null, valid: false, reason: `no indexed file ${c.path}` };
    let first: TraceCitation | null = null;
    for (const path of candidates) {
      const body = this.store().fileText(path) ?? '';
      const problem = c.names.map((name) => this.nameProblem(path, body, name, c.definition === true)).find((p) => p !== null) ?? null;
      if (problem === null) return { ...base, path, valid: true, reason: null };
      first ??= { ...base, path, valid: false, reason: problem };
    }
    return first!;
  }

  /**
   * Why `name`, attached to `path` (whose cited text is `body`), does not
   * check out, or null when it does:
   * - `definition` (`path:Name`): the index must define it in that file, as
   *   written or as the tail of a qualified name (the text decides only for a
   *   file the index parsed no symbols of);
   * - otherwise the text must hold its last part as a word, and a qualified
   *   name whose owner is a repository symbol must be one the index defines
   *   somewhere as written.
   */
  nameProblem(path: string, body: string, name: string, definition: boolean): string | null {
    const store = this.store();
    const defined = new Set(store.symbolsOf(path).map((s) => s.qualifiedName));
    if (definition) {
      const ok = defined.size > 0 ? namesDefinition(name, defined) : containsName(body, name);
      return ok ? null : `${path} does not define \`${name}\``;
    }
    if (!containsName(body, name)) return `${path} does not contain \`${name}\``;
    const dot = name.lastIndexOf('.');
    if (dot < 0 || defined.size === 0) return null;
    const owner = name.slice(0, dot);
    if (!this.definedAnywhere(owner)) return null;
    return this.definedAnywhere(name) ? null : `no \`${name}\` is defined in the repository (\`${owner}\` has no \`${name.slice(dot + 1)}\`)`;
  }

  /** True when the index defines a symbol whose qualified name is `name` or ends with `.name`. */
  private definedAnywhere(name: string): boolean {
    const last = name.split('.').pop()!;
    return symbolsNamed(this.store(), last, SYMBOL_KINDS, 500).some((s) => s.qualifiedName === name || s.qualifiedName.endsWith(`.${name}`));
  }

  private store(): IndexStore {
    return this.env.toolContext.repositories.select(this.env.repo).index.store;
  }

  /** The verdict for one citation. */
  async verify(c: Pick<ParsedCitation, 'text' | 'path' | 'startLine' | 'endLine' | 'names'>): Promise<TraceCitation> {
    const base = { text: c.text, startLine: c.startLine, endLine: c.endLine, names: [...c.names] };
    if (c.endLine < c.startLine) return { ...base, path: null, valid: false, reason: `reversed line range ${c.startLine}-${c.endLine}` };
    const candidates = this.resolve(c.path);
    if (candidates.length === 0) return { ...base, path: null, valid: false, reason: `no indexed file ${c.path}` };
    let first: TraceCitation | null = null;
    for (const path of candidates) {
      const verdict = await this.verifyIn(path, c, base);
      if (verdict.valid) return verdict;
      first ??= verdict;
    }
    return first!;
  }

  /** Reads `path:start-end` through view_code; null-safe for callers building fallbacks. */
  async read(path: string, start: number, end: number): Promise<{ ok: true; data: ViewData } | { ok: false; reason: string }> {
    const key = `${path}:${start}-${end}`;
    let view = this.views.get(key);
    if (!view) {
      // data.lines holds the whole span whatever the render budget.
      const args: Record<string, unknown> = { file: path, start, end };
      if (this.env.repo) args.repo = this.env.repo;
      view = callTool(this.env.registry, 'view_code', args, this.env.toolContext).then((r) =>
        r.isError ? { ok: false as const, reason: r.text } : { ok: true as const, data: r.data as ViewData },
      );
      this.views.set(key, view);
    }
    return view;
  }

  private async verifyIn(path: string, c: Pick<ParsedCitation, 'startLine' | 'endLine' | 'names'>, base: Omit<TraceCitation, 'path' | 'valid' | 'reason'>): Promise<TraceCitation> {
    const view = await this.read(path, c.startLine, c.endLine);
    if (!view.ok) return { ...base, path, valid: false, reason: view.reason.split('\n')[0]!.slice(0, 200) };
    if (view.data.clamped || view.data.end < c.endLine) {
      return { ...base, path, valid: false, reason: `span past the end of the file (${countOf(view.data.lineCount, 'line')})` };
    }
    const body = view.data.lines.join('\n');
    const missing = c.names.filter((name) => !containsName(body, name));
    if (missing.length > 0) return { ...base, path, valid: false, reason: `span does not contain ${missing.map((m) => `\`${m}\``).join(', ')}` };
    const problem = c.names.map((name) => this.nameProblem(path, body, name, false)).find((p) => p !== null);
    if (problem) return { ...base, path, valid: false, reason: problem };
    return { ...base, path, valid: true, reason: null };
  }

  /** Indexed files a written path refers to: itself, or every file it is a path-suffix of. */
  private resolve(written: string): string[] {
    const clean = written.replace(/^\.\//, '').replace(/^\/+/, '');
    this.paths ??= this.store()
      .files()
      .map((f) => f.path);
    if (this.paths.includes(clean)) return [clean];
    return this.paths.filter((p) => p.endsWith(`/${clean}`)).sort();
  }
}

/**
 * True when `body` contains the name's last dotted part as a whole word
 * (`Flask.run` is satisfied by `def run(`: the class line may lie outside
 * the cited method).
 */
export function containsName(body: string, name: string): boolean {
  const last = name.split('.').pop()!;
  const escaped = last.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])`).test(body);
}

/**
 * True when `name`, written against a file, names one of `defined` (the
 * qualified names of the file's symbols): itself, or the tail of one after a
 * dot (`find_by_isbn` of `Catalogue.find_by_isbn`, never of `Inventory.find_by_isbn`).
 */
export function namesDefinition(name: string, defined: ReadonlySet<string>): boolean {
  if (defined.has(name)) return true;
  for (const q of defined) if (q.endsWith(`.${name}`)) return true;
  return false;
}
