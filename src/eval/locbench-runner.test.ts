import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isReponavError } from '../errors.js';
import type { InstanceLocalizer, LocalizeInput } from './localizer.js';
import { runLocbench, type LocbenchRunOptions } from './locbench-runner.js';
import { createProgressReporter } from './progress-reporter.js';
import type { LocbenchSummary } from './report.js';

const git = (args: string[], cwd: string, date?: string) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}) },
  }).trim();

/** A repo `acme/widget` at DIR/acme+widget (normal clone) with commits c1 < c2 < c3 by date. */
function makeRepos(root: string): { c1: string; c2: string; c3: string } {
  const work = join(root, 'repos', 'acme+widget');
  mkdirSync(work, { recursive: true });
  git(['init', '-q'], work);
  const shas: string[] = [];
  for (const [i, date] of ['2020-01-01T00:00:00Z', '2021-01-01T00:00:00Z', '2022-01-01T00:00:00Z'].entries()) {
    writeFileSync(join(work, 'a.py'), `v${i}\n`);
    git(['add', '.'], work);
    git(['commit', '-q', '-m', `c${i}`], work, date);
    shas.push(git(['rev-parse', 'HEAD'], work));
  }
  return { c1: shas[0]!, c2: shas[1]!, c3: shas[2]! };
}

const instance = (id: string, repo: string, commit: string, edits: string[], category = 'Bug Report') =>
  JSON.stringify({ instance_id: id, repo, base_commit: commit, category, problem_statement: `issue ${id}`, edit_functions: edits });

/** Answers with the gold for `perfect` ids (plus a duplicate), nothing useful otherwise; throws for `failing`. */
class FakeLocalizer implements InstanceLocalizer {
  calls: LocalizeInput[] = [];
  constructor(
    private readonly failing = new Set<string>(),
    private readonly onCall?: (input: LocalizeInput) => void,
  ) {}
  async localize(input: LocalizeInput) {
    this.calls.push(input);
    this.onCall?.(input);
    if (this.failing.has(input.instanceId)) throw new Error(`boom in ${input.instanceId}`);
    if (input.instanceId === 'i-old') {
      return {
        found_files: ['a.py', 'a.py'],
        found_modules: ['a.py:A'],
        found_entities: ['a.py:A.f'],
        timings: { index: 5, search: 1 },
        raw_hits: [{ path: 'a.py', symbol: 'A.f', score: 2.5 }],
      };
    }
    return { found_files: ['z.py', 'b.py'], found_modules: [], found_entities: [] };
  }
}

const readLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('runLocbench', () => {
  let root: string;
  let shas: { c1: string; c2: string; c3: string };
  let options: LocbenchRunOptions;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'reponav-runner-'));
    shas = makeRepos(root);
    const instancesPath = join(root, 'instances.jsonl');
    writeFileSync(
      instancesPath,
      [
        instance('i-new', 'acme/widget', shas.c2, ['b.py:g'], 'Feature Request'),
        instance('i-old', 'acme/widget', shas.c1, ['a.py:A.f']),
        'not json at all',
        instance('i-norepo', 'acme/missing', shas.c1, ['a.py:f']),
        instance('i-nocommit', 'acme/widget', 'e'.repeat(40), ['a.py:f']),
        instance('i-fails', 'acme/widget', shas.c3, ['a.py:f']),
      ].join('\n') + '\n',
    );
    options = { instancesPath, reposDir: join(root, 'repos'), outDir: join(root, 'out') };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('localizes in commit-date order, reports skips and keeps going, writes valid output and a summary', async () => {
    const localizer = new FakeLocalizer(new Set(['i-fails']));
    const result = await runLocbench(options, localizer);

    expect(localizer.calls.map((c) => c.instanceId)).toEqual(['i-old', 'i-new', 'i-fails']);
    expect(localizer.calls[0]).toMatchObject({ repo: 'acme/widget', commit: shas.c1, query: 'issue i-old' });
    expect(localizer.calls[0]!.gitDir).toBe(join(root, 'repos', 'acme+widget', '.git'));

    const predictions = readLines(result.paths.predictions);
    expect(predictions.map((p) => p.instance_id)).toEqual(['i-old', 'i-new']);
    expect(predictions[0]).toMatchObject({
      found_files: ['a.py'], // de-duplicated by the writer
      meta: { repo: 'acme/widget', base_commit: shas.c1, duplicates_removed: 1, timings: { index: 5, search: 1 }, raw_hits: [{ path: 'a.py', symbol: 'A.f', score: 2.5 }] },
    });
    // Raw hits are recorded only when the localizer reports them.
    expect(predictions[1]!.meta).not.toHaveProperty('raw_hits');

    const skipped = readLines(result.paths.skipped);
    expect(skipped.map((s) => [s.reason, s.instanceId ?? s.lineNumber])).toEqual([
      ['malformed-line', 3],
      ['unknown-commit', 'i-nocommit'], // repos in order of first appearance: acme/widget first
      ['unknown-repo', 'i-norepo'],
      ['localizer-error', 'i-fails'],
    ]);
    expect(skipped[3]!.detail).toMatch(/boom/);

    const summary = JSON.parse(readFileSync(result.paths.summaryJson, 'utf8')) as LocbenchSummary;
    expect(summary.interrupted).toBe(false);
    expect(summary.counts).toMatchObject({ instances: 5, withPrediction: 2, missingPrediction: 3, skipped: 4, notAttempted: 0 });
    expect(summary.counts.skippedByReason).toEqual({ 'malformed-line': 1, 'unknown-repo': 1, 'unknown-commit': 1, 'localizer-error': 1 });
    // LocAgent semantics: 5 instances with gold, only i-old has its file at rank 1, i-new at rank 2.
    expect(summary.metrics.file.scores['Acc@1']).toBeCloseTo(1 / 5, 12);
    expect(summary.metrics.file.scores['Acc@3']).toBeCloseTo(2 / 5, 12);
    expect(summary.metrics.function.scores['Acc@5']).toBeCloseTo(1 / 5, 12);
    expect(summary.metricsPredictedOnly.file.scores['Acc@3']).toBe(1);
    expect(summary.fileToFunctionGap).toBeCloseTo(1 / 5, 12);
    expect(summary.byCategory['Feature Request']).toMatchObject({ instances: 1, withPrediction: 1 });
    expect(Object.keys(summary.byRepo)).toEqual(['acme/missing', 'acme/widget']);
    expect(summary.timings.perInstance?.count).toBe(2);
    expect(summary.timings.stages.index?.mean).toBe(5);
    expect(summary.config).toMatchObject({ mode: 'retrieval', settings: {}, order: 'commit-date' });
    expect(readFileSync(result.paths.summaryMarkdown, 'utf8')).toBe(result.markdown);
    expect(result.markdown).toMatch(/\| file \| 0\.200 \|/);
  });

  it('runs up to `concurrency` instances at once and still writes every prediction', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const localizer: InstanceLocalizer = {
      async localize(input) {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 30));
        inFlight--;
        if (input.instanceId === 'i-fails') throw new Error('boom');
        return { found_files: ['a.py'], found_modules: [], found_entities: [] };
      },
    };
    const result = await runLocbench({ ...options, concurrency: 3 }, localizer);
    expect(maxInFlight).toBe(3);
    expect(readLines(result.paths.predictions).map((p) => p.instance_id).sort()).toEqual(['i-new', 'i-old']);
    expect(result.summary.counts.skippedByReason['localizer-error']).toBe(1);
  });

  it('resumes: finished instances are not localized again, skipped ones are retried', async () => {
    await runLocbench(options, new FakeLocalizer(new Set(['i-fails'])));
    const second = new FakeLocalizer();
    const result = await runLocbench(options, second);
    expect(second.calls.map((c) => c.instanceId)).toEqual(['i-fails']);
    expect(result.resumed).toBe(2);
    expect(result.predictedThisRun).toBe(1);
    expect(readLines(result.paths.predictions).map((p) => p.instance_id)).toEqual(['i-old', 'i-new', 'i-fails']);
    expect(result.summary.counts.withPrediction).toBe(3);
    expect(readLines(result.paths.skipped).map((s) => s.reason).sort()).toEqual(['malformed-line', 'unknown-commit', 'unknown-repo']);
  });

  it('stops after the current instance when aborted, leaving valid output; a re-run finishes', async () => {
    const controller = new AbortController();
    const localizer = new FakeLocalizer(new Set(), () => controller.abort());
    const result = await runLocbench({ ...options, signal: controller.signal }, localizer);
    expect(localizer.calls).toHaveLength(1);
    expect(result.interrupted).toBe(true);
    expect(result.summary.interrupted).toBe(true);
    expect(result.summary.counts.notAttempted).toBe(2);
    // Scope = attempted instances: i-old plus the two planning skips.
    expect(result.summary.counts.instances).toBe(3);
    expect(readLines(result.paths.predictions)).toHaveLength(1);
    expect(existsSync(result.paths.summaryJson)).toBe(true);
    expect(result.markdown).toMatch(/interrupted/);

    const rest = new FakeLocalizer();
    const finished = await runLocbench(options, rest);
    expect(rest.calls.map((c) => c.instanceId)).toEqual(['i-new', 'i-fails']);
    expect(finished.interrupted).toBe(false);
    expect(readLines(finished.paths.predictions)).toHaveLength(3);
  });

  it('repairs a torn last line left by a crash and carries on', async () => {
    await runLocbench({ ...options, only: ['i-old'] }, new FakeLocalizer());
    appendFileSync(join(options.outDir, 'predictions.jsonl'), '{"instance_id":"i-new","found_fi');
    const localizer = new FakeLocalizer();
    const result = await runLocbench(options, localizer);
    expect(localizer.calls.map((c) => c.instanceId)).toEqual(['i-new', 'i-fails']);
    expect(readLines(result.paths.predictions).map((p) => p.instance_id)).toEqual(['i-old', 'i-new', 'i-fails']);
  });

  it('applies --only and --limit, and file order when asked', async () => {
    const a = new FakeLocalizer();
    const limited = await runLocbench({ ...options, outDir: join(root, 'o1'), limit: 2 }, a);
    expect(a.calls.map((c) => c.instanceId)).toEqual(['i-new', 'i-old'].reverse());
    expect(limited.summary.counts.instances).toBe(2);
    const b = new FakeLocalizer();
    await runLocbench({ ...options, outDir: join(root, 'o2'), only: ['i-old', 'i-new'], order: 'file' }, b);
    expect(b.calls.map((c) => c.instanceId)).toEqual(['i-new', 'i-old']);
  });

  it('refuses to resume into an output made with another localizer config', async () => {
    await runLocbench({ ...options, only: ['i-old'], localizerConfig: { settings: { alpha: 0.5 } } }, new FakeLocalizer());
    await expect(
      runLocbench({ ...options, localizerConfig: { settings: { alpha: 0.7 } } }, new FakeLocalizer()),
    ).rejects.toSatisfy((e) => isReponavError(e, 'BAD_INPUT') && /\(localizerConfig\.settings\.alpha: 0\.5 → 0\.7\)/.test(e.message));
    await expect(runLocbench({ ...options, localizerConfig: { settings: { alpha: 0.5 } }, reponavRevision: 'other' }, new FakeLocalizer())).rejects.toThrow(/reponav: .* → "other"/);
  });

  it('refuses to resume into an output whose localizer facts differ (another ranker model under equal settings)', async () => {
    const withFacts = (runFacts: Record<string, unknown>) => Object.assign(new FakeLocalizer(), { runFacts });
    await runLocbench({ ...options, only: ['i-old'] }, withFacts({ ranker: 'auto', rankerModel: 'a'.repeat(64) }));
    await expect(runLocbench(options, withFacts({ ranker: 'auto', rankerModel: 'b'.repeat(64) }))).rejects.toThrow(/facts\.rankerModel: "a+" → "b+"/);
    await expect(runLocbench(options, withFacts({ ranker: 'hand' }))).rejects.toThrow(/facts\.ranker: "auto" → "hand"/);
  });

  it('reports progress', async () => {
    const lines: string[] = [];
    const progress = createProgressReporter({ stream: { write: (s: string) => lines.push(s) }, tty: false, intervalMs: 0 });
    await runLocbench(options, new FakeLocalizer(), { progress });
    expect(lines[0]).toMatch(/^\[reponav\] eval: 2\/5 \(2 skipped\)/);
    expect(lines.at(-1)).toMatch(/5\/5 \(2 skipped\) 100%/);
  });
});
