import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isReponavError } from '../../errors.js';
import { silentLogger } from '../../logger.js';
import { createRetrievalLocalizer, type InstanceLocalizer, type LocbenchLocalizerConfig, type LocbenchSummary } from '../../eval/index.js';
import { registerEvalCommands, type EvalCommandDeps } from './eval-command.js';

const SHA = 'a'.repeat(40);
const inst = (id: string, edits: string[]) =>
  JSON.stringify({ instance_id: id, repo: 'o/r', base_commit: SHA, category: 'Bug Report', problem_statement: 'q', edit_functions: edits });

function harness(overrides: Partial<EvalCommandDeps> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const configs: LocbenchLocalizerConfig[] = [];
  let closed = 0;
  // Commander's own messages (a bad option value) go to the captured streams, as the CLI's own program sends them.
  const program = new Command().exitOverride().configureOutput({ writeOut: (s) => out.push(s), writeErr: (s) => err.push(s) });
  registerEvalCommands(program, {
    async createLocalizer(config): Promise<InstanceLocalizer> {
      configs.push(config);
      return {
        localize: async () => ({ found_files: ['a.py'], found_modules: ['a.py:A'], found_entities: ['a.py:A.f'] }),
        close: async () => void (closed += 1),
      };
    },
    logger: silentLogger,
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s), isTTY: false },
    signal: new AbortController().signal,
    ...overrides,
  });
  const run = (...args: string[]) => program.parseAsync(['node', 'reponav', 'eval', ...args]);
  return { run, out, err, configs, closed: () => closed };
}

describe('eval commands', () => {
  let dir: string;
  let instancesPath: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'reponav-evalcmd-'));
    instancesPath = join(dir, 'instances.jsonl');
    writeFileSync(instancesPath, [inst('i1', ['a.py:A.f', 'b.py:g']), inst('i2', ['c.py:h']), inst('i3', ['d.py:k'])].join('\n'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('score: says how many instance lines it skipped, and refuses an input with none readable', async () => {
    const predictions = join(dir, 'loc_outputs.jsonl');
    writeFileSync(predictions, JSON.stringify({ instance_id: 'i1', found_files: ['a.py'] }));
    writeFileSync(instancesPath, [inst('i1', ['a.py:A.f']), 'garbage', inst('i2', ['c.py:h'])].join('\n'));
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    await harness({ logger }).run('score', '--instances', instancesPath, '--predictions', predictions, '--format', 'json');
    expect(warnings).toContainEqual(expect.stringMatching(/^skipped 1 of 3 lines of .*instances\.jsonl that are not LocBench instances \(first: line 2: invalid JSON/));
    writeFileSync(instancesPath, 'garbage\n{"x":1}\n');
    const refused = await harness().run('score', '--instances', instancesPath, '--predictions', predictions).catch((e: unknown) => e);
    expect(isReponavError(refused, 'BAD_INPUT')).toBe(true);
  });

  it('score: scores another tool’s predictions, de-duplicating and counting', async () => {
    const predictions = join(dir, 'loc_outputs.jsonl');
    writeFileSync(
      predictions,
      [
        JSON.stringify({ instance_id: 'i1', found_files: ['a.py', 'a.py', 'b.py'], found_modules: ['a.py:A', 'b.py:g'], found_entities: ['a.py:A.f'], raw_output_loc: ['…'] }),
        JSON.stringify({ instance_id: 'i2', found_files: ['x.py', 'c.py'] }),
        '{"broken":',
        JSON.stringify({ instance_id: 'other', found_files: [] }),
      ].join('\n'),
    );
    const h = harness();
    await h.run('score', '--instances', instancesPath, '--predictions', predictions, '--format', 'json');
    const summary = JSON.parse(h.out.join('')) as LocbenchSummary;
    expect(summary.counts).toMatchObject({
      instances: 3,
      withPrediction: 2,
      missingPrediction: 1,
      duplicatesRemoved: 1,
      malformedPredictionLines: 1,
      outOfScopePredictionLines: 1,
    });
    // file: i1 both files in top 2 → Acc@3 1 (Acc@1 1: 2 gold > k); i2 rank 2; i3 missing.
    expect(summary.metrics.file.scores['Acc@1']).toBeCloseTo(1 / 3, 12);
    expect(summary.metrics.file.scores['Acc@3']).toBeCloseTo(2 / 3, 12);
    expect(summary.metrics.function.scores['Recall@5']).toBeCloseTo((1 / 2) / 3, 12);

    const md = harness();
    await md.run('score', '--instances', instancesPath, '--predictions', predictions);
    expect(md.out.join('')).toContain('| file | 0.333 | 0.667 | 0.667 |');
  });

  it('locbench: runs, prints the table, writes the summary and closes the localizer', async () => {
    const repos = join(dir, 'repos');
    mkdirSync(repos);
    const work = join(repos, 'o+r');
    mkdirSync(work);
    execFileSync('git', ['init', '-q', work]);
    execFileSync('git', ['-C', work, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x']);
    const sha = execFileSync('git', ['-C', work, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    writeFileSync(instancesPath, readFileSync(instancesPath, 'utf8').replaceAll(SHA, sha));
    const out = join(dir, 'out');
    const h = harness();
    await h.run('locbench', '--instances', instancesPath, '--repos', repos, '--out', out, '--limit', '2', '--config-json', '{"alpha":0.5}');
    expect(h.configs).toEqual([{ mode: 'retrieval', settings: { alpha: 0.5 } }]);
    expect(h.closed()).toBe(1);
    // i1: a.py first of 2 gold files → Acc@1 1 (more gold than k) but Acc@3 0; i2: miss.
    expect(h.out.join('')).toContain('| file | 0.500 | 0.000 | 0.000 |  | 0.250 |');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as LocbenchSummary;
    expect(summary.counts.instances).toBe(2);
    expect(summary.config).toMatchObject({ mode: 'retrieval', settings: { alpha: 0.5 }, limit: 2 });
    expect(h.err.join('')).toMatch(/2\/2 100%/);
  });

  it('locbench --mode agent uses the injected agent factory, and fails clearly without one', async () => {
    const h = harness();
    const args = ['locbench', '--instances', instancesPath, '--repos', dir, '--out', join(dir, 'o'), '--mode', 'agent', '--interface', 'reponav'];
    await expect(h.run(...args)).rejects.toSatisfy((e) => isReponavError(e, 'BAD_INPUT') && /agent/.test((e as Error).message));
    let seen: LocbenchLocalizerConfig | undefined;
    const createAgentLocalizer = async (config: LocbenchLocalizerConfig): Promise<InstanceLocalizer> => {
      seen = config;
      return { localize: async () => ({ found_files: [], found_modules: [], found_entities: [] }) };
    };
    await harness({ createAgentLocalizer }).run(...args);
    expect(seen).toEqual({ mode: 'agent', interface: 'reponav', settings: {} });
  });

  it('rejects bad --config-json and bad --limit', async () => {
    const base = ['locbench', '--instances', instancesPath, '--repos', dir, '--out', join(dir, 'o')];
    await expect(harness().run(...base, '--config-json', '[1]')).rejects.toSatisfy((e) => isReponavError(e, 'BAD_INPUT'));
    // A value that is not a count is a usage error from the shared option parsers (exit 2), not BAD_INPUT.
    await expect(harness().run(...base, '--limit', 'x')).rejects.toMatchObject({ code: 'commander.invalidArgument' });
  });

  it('retrieval --config-json takes every plain search setting, and names a bad one', async () => {
    const base = ['locbench', '--instances', instancesPath, '--repos', dir, '--out', join(dir, 'o'), '--limit', '0'];
    const retrieval = () => harness({ createLocalizer: (config) => createRetrievalLocalizer(config) });
    const accepted = {
      indexDir: join(dir, 'indexes'),
      symbolRanking: { callScope: 'ranked', implicitInheritance: true, sizePrior: 'percentile', titleModulePairs: false, coverage: { weight: 0.3, mode: 'share', idf: false } },
      evidence: { definition: { weight: 0.5 }, fileName: { maxFiles: 3 } },
      lexical: { wordVariants: { scope: 'missing' }, feedback: { terms: 4 }, scorer: 'postings' },
      fileLevel: { document: 'both', rankSymbols: true },
      query: { unknownNames: { mode: 'definition' } },
      titleFiles: { queryWeights: { title: 2 } },
    };
    await retrieval().run(...base, '--config-json', JSON.stringify(accepted));
    const rejects = async (settings: unknown, field: RegExp) =>
      expect(retrieval().run(...base, '--config-json', JSON.stringify(settings))).rejects.toSatisfy(
        (e) => isReponavError(e, 'BAD_INPUT') && field.test((e as Error).message),
      );
    await rejects({ symbolRanking: { callScope: 'everywhere' } }, /symbolRanking\.callScope/);
    await rejects({ symbolRanking: { callScop: 'file' } }, /symbolRanking: .*callScop/);
    await rejects({ aggregation: { alhpa: 0.5 } }, /aggregation: .*alhpa/);
    await rejects({ symbolRanking: { coverage: { shape: 'best' } } }, /symbolRanking\.coverage\.shape/);
    // A knob of the earlier flat settings is refused with its new place, not read as the default.
    await rejects({ definitionBoost: 0.5 }, /unknown setting 'definitionBoost' \(now 'evidence\.definition\.weight'\)/);
    await rejects({ evidence: { phraseBoost: 0 } }, /evidence: unknown setting 'phraseBoost'/);
  });

  it('compare: labels default to folder names; --labels overrides; counts must match', async () => {
    const predictions = join(dir, 'p.jsonl');
    writeFileSync(predictions, JSON.stringify({ instance_id: 'i2', found_files: ['c.py'] }));
    const scoreJson = harness();
    await scoreJson.run('score', '--instances', instancesPath, '--predictions', predictions, '--format', 'json');
    for (const name of ['base', 'next']) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'summary.json'), scoreJson.out.join(''));
    }
    const h = harness();
    await h.run('compare', join(dir, 'base', 'summary.json'), join(dir, 'next', 'summary.json'));
    expect(h.out.join('')).toContain('| level | metric | base | next |');
    expect(h.out.join('')).toContain('| file | Acc@1 | 0.333 | 0.333 (±0.000) |');
    // A run's folder (what `eval locbench --out` names) stands for its summary.json.
    const byFolder = harness();
    await byFolder.run('compare', join(dir, 'base'), join(dir, 'next'));
    expect(byFolder.out.join('')).toContain('| level | metric | base | next |');
    const labelled = harness();
    await labelled.run('compare', join(dir, 'base', 'summary.json'), join(dir, 'next', 'summary.json'), '--labels', 'A,B');
    expect(labelled.out.join('')).toContain('| level | metric | A | B |');
    await expect(harness().run('compare', join(dir, 'base', 'summary.json'), '--labels', 'A,B')).rejects.toSatisfy((e) =>
      isReponavError(e, 'BAD_INPUT'),
    );
    await expect(harness().run('compare', join(dir, 'missing.json'))).rejects.toSatisfy((e) => isReponavError(e, 'FILE_NOT_FOUND'));
  });

  it('analyze: writes analysis.md and analysis.json, prints the Markdown, and names a missing run', async () => {
    const predictions = join(dir, 'p.jsonl');
    writeFileSync(predictions, JSON.stringify({ instance_id: 'i2', found_files: ['c.py'], found_entities: ['c.py:x'] }));
    const scored = harness();
    await scored.run('score', '--instances', instancesPath, '--predictions', predictions, '--format', 'json');
    for (const name of ['base', 'next']) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'summary.json'), scored.out.join(''));
      writeFileSync(join(dir, name, 'predictions.jsonl'), readFileSync(predictions));
    }
    const h = harness();
    await h.run('analyze', join(dir, 'next'), '--against', join(dir, 'base'), '--out', join(dir, 'analysis'), '--resamples', '100');
    expect(h.out.join('')).toContain('## 1. Paired comparison');
    expect(readFileSync(join(dir, 'analysis', 'analysis.md'), 'utf8')).toBe(h.out.join(''));
    const document = JSON.parse(readFileSync(join(dir, 'analysis', 'analysis.json'), 'utf8')) as { kind: string; comparisons: unknown[]; taxonomies: { misses: number }[] };
    expect(document.kind).toBe('reponav-analysis');
    expect(document.comparisons).toHaveLength(1);
    // i1 (two gold functions) and i3 have no prediction; i2 predicted c.py:x, not c.py:h.
    expect(document.taxonomies.map((t) => t.misses)).toEqual([4, 4]);
    await expect(harness().run('analyze', join(dir, 'nowhere'), '--out', join(dir, 'analysis'))).rejects.toSatisfy((e) => isReponavError(e, 'FILE_NOT_FOUND'));
  });
});
