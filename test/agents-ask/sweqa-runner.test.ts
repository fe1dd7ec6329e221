/**
 * The SWE-QA harness end to end on a fixture git repository, with the
 * answering model and two judges on the scripted fake server.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { askAnswerer } from '../../src/cli/commands/sweqa-command.js';
import { runSweqa, type SweqaRecord } from '../../src/eval/sweqa/index.js';
import { createFixtureGitRepo } from './helpers/fixture-repo.js';
import { startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.js';

let dir: string;
let reposDir: string;
let questionsPath: string;
let llm: ScriptedLlm;

const question = (id: string, repo: string, text: string, answer: string, commit: string) => JSON.stringify({ id, repo, commit_short: commit, qtype_first_word: text.split(' ')[0]!.toLowerCase(), question: text, answer });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reponav-sweqa-'));
  process.env.REPONAV_CACHE_DIR = join(dir, 'cache');
  reposDir = join(dir, 'repos');
  mkdirSync(reposDir);
  const sha = createFixtureGitRepo(reposDir, 'acme/shop');
  const short = sha.slice(0, 7);
  questionsPath = join(dir, 'bench', 'questions.jsonl');
  mkdirSync(join(dir, 'bench'));
  writeFileSync(
    questionsPath,
    [
      question('shop-0', 'acme/shop', 'What does apply_discount do with the SAVE10 code?', 'It takes ten percent off.', short),
      question('shop-1', 'acme/shop', 'Why does Cart.total call with_tax last?', 'Tax applies to the discounted amount.', short),
      question('shop-2', 'acme/shop', 'How are command-line flags parsed?', 'parse_args uses argparse.', short),
      question('ghost-0', 'acme/ghost', 'Where is the ghost?', 'Nowhere.', short),
      'not json',
    ].join('\n') + '\n',
  );
  writeFileSync(join(dir, 'bench', 'sweqa-repo-commits.txt'), `https://github.com/acme/shop ${short}\nhttps://github.com/acme/ghost ${short}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  llm = await startScriptedLlm({ usage: { inputTokens: 100, outputTokens: 100 } });
  // judge-a answers clean JSON; judge-b rambles around it with strings and no total.
  llm.setDefault('judge', (body: any) =>
    body.model === 'judge-a'
      ? JSON.stringify({ correctness: 16, completeness: 12, relevance: 18, clarity: 14, reasoning: 10, total: 70 })
      : 'Evaluation:\n```json\n{"correctness": "12", "completeness": "10/20", "relevance": 16, "clarity": 20, "reasoning": 8}\n```',
  );
});
afterEach(async () => llm.close());

const readRecords = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as SweqaRecord);

describe('runSweqa', () => {
  it('answers, judges, summarises, and resumes without redoing finished questions', async () => {
    const outDir = join(dir, 'out-rag');
    const options = {
      questionsPath,
      reposDir,
      outDir,
      answerer: askAnswerer('rag'),
      model: llm.model('gpt-4o-mini'),
      judges: [llm.model('judge-a'), llm.model('judge-b')],
      concurrency: 3,
      indexDir: join(dir, 'indexes'),
    };
    const result = await runSweqa(options);
    const records = readRecords(result.paths.answers);
    expect(records.map((r) => [r.id, r.status]).sort()).toEqual([
      ['ghost-0', 'skipped'],
      ['shop-0', 'ok'],
      ['shop-1', 'ok'],
      ['shop-2', 'ok'],
    ]);
    expect(records.find((r) => r.id === 'ghost-0')!.reason).toMatch(/no git directory for acme\/ghost/);
    const ok = records.find((r) => r.id === 'shop-0')!;
    // judge-b: 12, 10 ("10/20"), 16, 20, 8; total computed 66. Mean with judge-a (70): 68.
    expect(ok.judges.map((j) => [j.total, j.flags])).toEqual([
      [70, []],
      [66, ['total-computed']],
    ]);
    expect(ok.scores).toEqual({ correctness: 14, completeness: 11, relevance: 17, clarity: 17, reasoning: 9 });
    expect(ok.total).toBe(68);
    expect(ok.commit).toMatch(/^[0-9a-f]{7}$/);
    expect(ok.cost).toMatchObject({ calls: 1, totalTokens: 200 });
    expect(ok.cost!.costUsd).toBeCloseTo(0.000075, 10);
    expect(ok.judgeCost).toMatchObject({ calls: 2, totalTokens: 400, costUsd: null });
    expect(ok.citations).toBeGreaterThan(0);

    const s = result.summary;
    expect(s.counts).toMatchObject({ questions: 4, ok: 3, skipped: 1, judgeRepairs: 3, judgeFailures: 0 });
    expect(s.mean!.total).toBe(68);
    expect(s.byType.map((t) => [t.qtype, t.n])).toEqual([
      ['what', 1],
      ['why', 1],
      ['where', 0],
      ['how', 1],
    ]);
    expect(s.cost.answerTokens).toBe(600);
    expect(s.cost.answerUsd).toBeCloseTo(0.000225, 8);
    expect(s.perQuestion.find((q) => q.id === 'shop-1')).toMatchObject({ total: 68, answerTokens: 200, judgeTokens: 400 });
    expect(s.perQuestion.every((q) => typeof q.answerChars === 'number')).toBe(true);
    const md = readFileSync(result.paths.summaryMd, 'utf8');
    expect(md).toContain('| all | 3 | 14.00 | 11.00 | 17.00 | 17.00 | 9.00 | 68.00 |');
    expect(md).toContain('## Answer length next to score');
    expect(JSON.parse(readFileSync(result.paths.summaryJson, 'utf8')).benchmark).toBe('swe-qa');
    expect(existsSync(join(result.paths.traces, 'shop-0.json'))).toBe(true);

    const answerCalls = llm.of('answer').length;
    const again = await runSweqa(options);
    expect(again.resumed).toBe(3);
    expect(again.answeredThisRun).toBe(1); // the skipped question is tried again
    expect(llm.of('answer').length).toBe(answerCalls);
    expect(readRecords(result.paths.answers)).toHaveLength(5);
    expect(again.summary.counts.questions).toBe(4);

    await expect(runSweqa({ ...options, answerer: askAnswerer('direct') })).rejects.toThrow(/holds a run made with other settings \(method: "rag" → "direct"/);
  });

  it('stops at the spend cap and records the question it hit', async () => {
    const result = await runSweqa({
      questionsPath,
      reposDir,
      outDir: join(dir, 'out-cap'),
      answerer: askAnswerer('rag'),
      model: llm.model('gpt-4o-mini'),
      judges: [llm.model('gpt-4o')],
      limit: 3,
      maxUsd: 0.00005,
      indexDir: join(dir, 'indexes'),
    });
    expect(result.stoppedForBudget).toBe(true);
    const records = readRecords(result.paths.answers);
    expect(records.map((r) => [r.id, r.status])).toEqual([['shop-0', 'budget']]);
    expect(records[0]!.answer).not.toBeNull();
    expect(result.summary.counts).toMatchObject({ questions: 1, budget: 1 });
  });

  it('starts nothing once interrupted, and still writes the summary', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runSweqa({
      questionsPath,
      reposDir,
      outDir: join(dir, 'out-interrupted'),
      answerer: askAnswerer('rag'),
      model: llm.model('gpt-4o-mini'),
      judges: [llm.model('judge-a')],
      signal: controller.signal,
    });
    expect(result).toMatchObject({ interrupted: true, answeredThisRun: 0 });
    expect(existsSync(result.paths.summaryJson)).toBe(true);
    expect(llm.calls).toHaveLength(0);
  });

  it('runs the direct baseline without opening repositories', async () => {
    const result = await runSweqa({
      questionsPath,
      reposDir: join(dir, 'nowhere'),
      outDir: join(dir, 'out-direct'),
      answerer: askAnswerer('direct'),
      model: llm.model('gpt-4o-mini'),
      judges: [llm.model('judge-a')],
      limit: 2,
    });
    expect(readRecords(result.paths.answers).map((r) => [r.status, r.answer])).toEqual([
      ['ok', 'Direct answer from memory.'],
      ['ok', 'Direct answer from memory.'],
    ]);
    expect(llm.of('direct')[0]!.prompt).toContain('Repository: acme/shop');
  });

  it('a model outage is an error, never judged; the summary counts it and a resumed run answers it again', async () => {
    const outDir = join(dir, 'out-outage');
    const options = { questionsPath, reposDir, outDir, answerer: askAnswerer('rag'), model: llm.model('gpt-4o-mini'), judges: [llm.model('judge-a')], limit: 3, indexDir: join(dir, 'indexes') };
    llm.setDefault('answer', { status: 500 });
    const down = await runSweqa(options);
    const records = readRecords(down.paths.answers);
    expect(records.map((r) => r.status)).toEqual(['error', 'error', 'error']);
    expect(records[0]!.reason).toMatch(/^llm-error: the model call failed \(.*500/);
    expect(records.every((r) => r.scores === null && r.judges.length === 0)).toBe(true);
    expect(llm.of('judge')).toHaveLength(0);
    expect(down.summary.counts).toMatchObject({ questions: 3, ok: 0, errors: 3 });
    expect(down.summary.errors![0]!.reason).toMatch(/^llm-error: /);
    expect(down.markdown).toMatch(/errors 3\)/);
    expect(down.summary.mean).toBeNull();

    llm.setDefault('answer', 'The discount is in shop/cart.py:1-5.');
    const repaired = await runSweqa(options);
    expect(repaired.answeredThisRun).toBe(3);
    expect(repaired.summary.counts).toMatchObject({ ok: 3, errors: 0 });
  });

  it('an answer the model could not write (every synthesis reply cut) is an error, never judged as an answer; a resumed run answers it again', async () => {
    const outDir = join(dir, 'out-cut-answer');
    const options = { questionsPath, reposDir, outDir, answerer: askAnswerer('rag'), model: llm.model('gpt-4o-mini'), judges: [llm.model('judge-a')], limit: 2, indexDir: join(dir, 'indexes') };
    llm.setDefault('answer', { content: 'The discount is in', finishReason: 'length' });
    llm.setDefault('revision', { content: 'The discount is in', finishReason: 'length' });
    const judgedBefore = llm.of('judge').length;
    const cut = await runSweqa(options);
    const records = readRecords(cut.paths.answers);
    expect(records.map((r) => r.status)).toEqual(['error', 'error']);
    expect(records[0]!.reason).toMatch(/^llm-error: .*answer.*(cut|truncated)/);
    expect(records.every((r) => r.scores === null && r.judges.length === 0)).toBe(true);
    expect(llm.of('judge').length).toBe(judgedBefore);
    expect(cut.summary.counts).toMatchObject({ ok: 0, errors: 2 });

    llm.setDefault('answer', 'The discount is in shop/cart.py:1-5.');
    llm.setDefault('revision', 'The discount is in shop/cart.py:1-5.');
    const repaired = await runSweqa(options);
    expect(repaired.answeredThisRun).toBe(2);
    expect(repaired.summary.counts).toMatchObject({ ok: 2, errors: 0 });
  });

  it('unscored answers are judged again on resume, without answering them again; the summary says why they were unscored', async () => {
    const outDir = join(dir, 'out-unscored');
    const options = { questionsPath, reposDir, outDir, answerer: askAnswerer('rag'), model: llm.model('gpt-4o-mini'), judges: [llm.model('judge-a')], limit: 2, indexDir: join(dir, 'indexes') };
    llm.setDefault('judge', { status: 503 });
    const first = await runSweqa(options);
    expect(readRecords(first.paths.answers).map((r) => r.status)).toEqual(['unscored', 'unscored']);
    expect(first.summary.counts.unscored).toBe(2);
    expect(first.summary.unscored![0]!.reason).toMatch(/^no usable judge reply: openai-compatible:judge-a: .*503/);
    expect(first.markdown).toMatch(/Unscored \(judged again on resume\): shop-0 \(no usable judge reply/);
    const answers = llm.of('answer').length;

    llm.setDefault('judge', JSON.stringify({ correctness: 16, completeness: 12, relevance: 18, clarity: 14, reasoning: 10, total: 70 }));
    const again = await runSweqa(options);
    expect(again).toMatchObject({ rejudged: 2, answeredThisRun: 0 });
    expect(llm.of('answer').length).toBe(answers);
    expect(again.summary.counts).toMatchObject({ ok: 2, unscored: 0 });
    const latest = readRecords(again.paths.answers).slice(-2);
    expect(latest.map((r) => [r.status, r.total, r.reason])).toEqual([['ok', 70, undefined], ['ok', 70, undefined]]);
    expect(latest[0]!.answer).toBe(readRecords(again.paths.answers)[0]!.answer);
  });

  it('a resume with any changed setting is refused naming every difference; --allow-changed-settings resumes and records them', async () => {
    const outDir = join(dir, 'out-settings');
    const base = { questionsPath, reposDir, outDir, model: llm.model('gpt-4o-mini'), judges: [llm.model('judge-a')], limit: 1, indexDir: join(dir, 'indexes') };
    const models = { answer: { provider: 'openai-compatible', baseUrlHost: '127.0.0.1:1' } };
    await runSweqa({ ...base, answerer: askAnswerer('rag'), models });
    const changed = { ...base, answerer: askAnswerer('rag', { iterations: 2, rubric: 'reponav' }), models: { answer: { provider: 'openai-compatible', baseUrlHost: '127.0.0.1:2' } } };
    await expect(runSweqa(changed)).rejects.toThrow(
      /holds a run made with other settings \(models\.answer\.baseUrlHost: "127\.0\.0\.1:1" → "127\.0\.0\.1:2"; settings\.iterations: 15 → 2; settings\.rubric: "deeprepoqa" → "reponav"\); use another --out folder, or --allow-changed-settings/,
    );
    await expect(runSweqa({ ...base, answerer: askAnswerer('rag'), models, reponavRevision: 'abc1234' })).rejects.toThrow(/reponav: .* → "abc1234"/);
    await expect(runSweqa({ ...base, answerer: askAnswerer('rag'), models, judges: [llm.model('judge-b')] })).rejects.toThrow(/judges: \["openai-compatible:judge-a"\] → \["openai-compatible:judge-b"\]/);
    const allowed = await runSweqa({ ...changed, allowChangedSettings: true });
    const run = JSON.parse(readFileSync(allowed.paths.run, 'utf8'));
    expect(run.settings).toMatchObject({ iterations: 2, rubric: 'reponav' });
    expect(run.allowedChanges).toHaveLength(1);
    expect(run.allowedChanges[0].differences).toEqual(['models.answer.baseUrlHost: "127.0.0.1:1" → "127.0.0.1:2"', 'settings.iterations: 15 → 2', 'settings.rubric: "deeprepoqa" → "reponav"']);
    expect(allowed.markdown).toContain('Settings changed on resume (--allow-changed-settings): models.answer.baseUrlHost');
    // The same settings again: accepted, the earlier allowed change kept.
    await runSweqa(changed);
    expect(JSON.parse(readFileSync(allowed.paths.run, 'utf8')).allowedChanges).toHaveLength(1);
  });
});
