import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logger.js';
import { registerEvalCommands } from './eval-command.js';

describe('eval compare (CLI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reponav-compare-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const SHA = 'a'.repeat(40);
  const instances = join(dir, 'instances.jsonl');
  const ids = Array.from({ length: 40 }, (_, i) => `i${i}`);
  writeFileSync(
    instances,
    ids.map((id) => JSON.stringify({ instance_id: id, repo: 'o/r', base_commit: SHA, category: 'Bug Report', problem_statement: 'q', edit_functions: [`${id}.py:f`] })).join('\n'),
  );
  // Run "old" finds the first 20 files; "new" finds 35 of the 40, a clear gain.
  for (const [name, found] of [['old', 20], ['new', 35]] as const) {
    mkdirSync(join(dir, name));
    const lines = ids.map((id, i) => JSON.stringify({ instance_id: id, found_files: [i < found ? `${id}.py` : 'x.py'], found_modules: [], found_entities: [] }));
    writeFileSync(join(dir, name, 'predictions.jsonl'), lines.join('\n'));
  }

  const cli = () => {
    const out: string[] = [];
    const program = new Command().exitOverride();
    registerEvalCommands(program, { createLocalizer: async () => ({ localize: async () => null as never }), logger: silentLogger, stdout: { write: (s: string) => out.push(s) } });
    return { out, run: (...args: string[]) => program.parseAsync(['node', 'reponav', 'eval', ...args]) };
  };

  it('adds the paired bootstrap to the side-by-side table, and gives the same figures as JSON', async () => {
    for (const name of ['old', 'new']) {
      const score = cli();
      await score.run('score', '--instances', instances, '--predictions', join(dir, name, 'predictions.jsonl'), '--format', 'json');
      writeFileSync(join(dir, name, 'summary.json'), score.out.join(''));
    }
    const md = cli();
    await md.run('compare', join(dir, 'old', 'summary.json'), join(dir, 'new', 'summary.json'));
    const text = md.out.join('');
    expect(text).toContain('| level | metric | old | new |');
    expect(text).toContain('## Paired bootstrap: new vs old');
    expect(text).toMatch(/\| file \| Acc@1 \| 0\.500 \| 0\.875 \| \+0\.375 \| \[\+0\.2\d\d, \+0\.5\d\d\] \| <0\.001 \| <0\.001 \| 15 \| 0 \| 25 \| better \|/);

    const json = cli();
    await json.run('compare', join(dir, 'old', 'summary.json'), join(dir, 'new', 'summary.json'), '--format', 'json', '--resamples', '500', '--seed', '9');
    const document = JSON.parse(json.out.join(''));
    expect(document.kind).toBe('reponav-locbench-comparison');
    const file1 = document.comparisons[0].measures.find((m: { level: string; metric: string }) => m.level === 'file' && m.metric === 'Acc@1');
    expect(file1).toMatchObject({ won: 15, lost: 0, tied: 25 });
    expect(file1.wonInstances).toEqual(ids.slice(20, 35));
    expect(document.comparisons[0]).toMatchObject({ resamples: 500, seed: 9, paired: 40 });
  });

  it('compares only the instances a run selected (its recorded --limit), not the whole instances file', async () => {
    // "new" ran with --limit 25: its 15 unattempted instances are not misses, and only 25 pairs exist.
    const summaryPath = join(dir, 'new', 'summary.json');
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8'));
    writeFileSync(summaryPath, JSON.stringify({ ...summary, config: { ...summary.config, limit: 25 } }));
    const json = cli();
    await json.run('compare', join(dir, 'old', 'summary.json'), summaryPath, '--format', 'json', '--resamples', '200');
    const document = JSON.parse(json.out.join(''));
    expect(document.comparisons[0].paired).toBe(25);
    const file1 = document.comparisons[0].measures.find((m: { level: string; metric: string }) => m.level === 'file' && m.metric === 'Acc@1');
    expect(file1).toMatchObject({ won: 5, lost: 0, tied: 20 });
  });
});
