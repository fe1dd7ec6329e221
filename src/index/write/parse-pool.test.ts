import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assignLanguages, createParsePool, LARGE_FILE_BYTES } from './parse-pool.js';
import { mulberry32 } from '../../../test/helpers/mulberry32.js';

describe('assignLanguages', () => {
  it('gives every worker the common languages and each rare one to a single worker, most files first to the least loaded', () => {
    const counts = new Map([
      ['python', 6542],
      ['tsx', 1028],
      ['typescript', 605],
      ['bash', 16],
      ['javascript', 14],
      ['java', 8],
      ['csharp', 6],
      ['ruby', 3],
      ['cpp', 1],
    ]);
    expect(Object.fromEntries(assignLanguages(counts, 2))).toEqual({
      python: null,
      tsx: null,
      typescript: null,
      bash: 0,
      javascript: 1,
      java: 1,
      csharp: 0,
      ruby: 0,
      cpp: 1,
    });
  });

  it('shares a language just above the rare share and pins one at it', () => {
    // 2% of 5,000 files is 100.
    expect(Object.fromEntries(assignLanguages(new Map([['python', 4799], ['go', 101], ['rust', 100]]), 4))).toEqual({ python: null, go: null, rust: 0 });
  });

  it('pins a language of fewer files than a second grammar copy is worth, whatever its share', () => {
    // Four copies of the 14-language fixture: every language ~7% of the run, 14 files each.
    const fixture = new Map(['python', 'typescript', 'tsx', 'javascript', 'go', 'rust', 'java', 'c', 'cpp', 'csharp', 'ruby', 'php', 'kotlin', 'bash'].map((l) => [l, 14]));
    const assigned = assignLanguages(fixture, 2);
    expect([...assigned.values()].filter((home) => home === null)).toEqual([]);
    expect([...assigned.values()].filter((home) => home === 0)).toHaveLength(7);
    expect(Object.fromEntries(assignLanguages(new Map([['python', 64], ['go', 63]]), 2))).toEqual({ python: null, go: 0 });
  });

  it('shares everything with one worker, and a run of one small language still has a worker', () => {
    expect(Object.fromEntries(assignLanguages(new Map([['python', 500], ['ruby', 1]]), 1))).toEqual({ python: null, ruby: null });
    expect(Object.fromEntries(assignLanguages(new Map([['ruby', 1]]), 3))).toEqual({ ruby: 0 });
    expect(assignLanguages(new Map(), 2).size).toBe(0);
  });

  it('follows the rule on generated runs (300 seeds): shared only when worth a copy per worker, the pinned ones balanced', () => {
    const names = ['python', 'typescript', 'tsx', 'javascript', 'go', 'rust', 'java', 'c', 'cpp', 'csharp', 'ruby', 'php', 'kotlin', 'bash', 'scala', 'swift'];
    for (let seed = 1; seed <= 300; seed++) {
      const random = mulberry32(seed);
      const workers = 1 + Math.floor(random() * 4);
      const counts = new Map<string, number>();
      for (const name of names) if (random() < 0.5) counts.set(name, 1 + Math.floor(random() ** 3 * 3000));
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      const assigned = assignLanguages(counts, workers);
      const context = `seed ${seed}: ${workers} workers, ${JSON.stringify(Object.fromEntries(counts))}`;
      expect([...assigned.keys()].sort(), context).toEqual([...counts.keys()].sort());
      const load = new Array<number>(workers).fill(0);
      let largestPinned = 0;
      for (const [language, home] of assigned) {
        const count = counts.get(language)!;
        const worthSharing = workers < 2 || (count > total * 0.02 && count >= 64);
        expect(home === null, `${context}: ${language}`).toBe(worthSharing);
        if (home !== null) {
          expect(home, context).toBeGreaterThanOrEqual(0);
          expect(home, context).toBeLessThan(workers);
          load[home]! += count;
          largestPinned = Math.max(largestPinned, count);
        }
      }
      // Placed most files first on the least loaded worker: no worker exceeds another by more than the largest pinned language.
      expect(Math.max(...load) - Math.min(...load), context).toBeLessThanOrEqual(largestPinned);
    }
  });
});

/** A stand-in worker script: answers each file with its thread id and the languages it was warmed with. */
function echoWorker(dir: string): string {
  const script = join(dir, 'echo-worker.mjs');
  writeFileSync(
    script,
    `import { parentPort, threadId } from 'node:worker_threads';
const warmed = [];
parentPort.on('message', (m) => {
  if (m.warm) warmed.push(...m.warm);
  else setTimeout(() => parentPort.postMessage({ id: m.id, result: { threadId, warmed: [...warmed].sort() } }), 5);
});
`,
  );
  return script;
}

describe('createParsePool dispatch', () => {
  it('sends a rare language to one worker, warms only that worker with it, and spreads the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reponav-pool-'));
    const pool = createParsePool(2, undefined, { workerScript: echoWorker(dir) });
    try {
      pool.warm(new Map([['python', 200], ['ruby', 2]]));
      const bytes = new Uint8Array([120]);
      const paths = ['a.rb', 'b.py', 'c.py', 'd.rb', 'e.py', 'f.py', 'g.rb', 'h.py'];
      const answers = (await Promise.all(paths.map((path) => pool.analyze(path, bytes)))) as unknown as { threadId: number; warmed: string[] }[];
      const rubyThreads = new Set(answers.filter((_, i) => paths[i]!.endsWith('.rb')).map((a) => a.threadId));
      expect(rubyThreads.size).toBe(1);
      expect(new Set(answers.map((a) => a.threadId)).size).toBe(2);
      for (const answer of answers) expect(answer.warmed).toEqual(rubyThreads.has(answer.threadId) ? ['python', 'ruby'] : ['python']);
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sends every large source file to one worker (only its wasm memory grows for them), balances the rest by queued bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reponav-pool-'));
    const pool = createParsePool(2, undefined, { workerScript: echoWorker(dir) });
    try {
      pool.warm(new Map([['python', 200]]));
      const large = new Uint8Array(LARGE_FILE_BYTES);
      const threads = async (jobs: { path: string; bytes: Uint8Array }[]) =>
        new Set(((await Promise.all(jobs.map((job) => pool.analyze(job.path, job.bytes)))) as unknown as { threadId: number }[]).map((a) => a.threadId));
      expect((await threads(Array.from({ length: 6 }, (_, i) => ({ path: `big${i}.py`, bytes: large })))).size).toBe(1);
      expect((await threads(Array.from({ length: 6 }, (_, i) => ({ path: `small${i}.py`, bytes: new Uint8Array([120]) })))).size).toBe(2);
      // A large file without a grammar is not parsed by tree-sitter: it is dispatched like any other.
      expect((await threads(Array.from({ length: 6 }, (_, i) => ({ path: `data${i}.csv`, bytes: large })))).size).toBe(2);
      // One large file queued on a worker weighs as much as many small ones: the small files go to the other.
      const mixed = [{ path: 'big.py', bytes: large }, ...Array.from({ length: 5 }, (_, i) => ({ path: `s${i}.py`, bytes: new Uint8Array(1000) }))];
      const answers = (await Promise.all(mixed.map((job) => pool.analyze(job.path, job.bytes)))) as unknown as { threadId: number }[];
      expect(new Set(answers.slice(1).map((a) => a.threadId)).size).toBe(1);
      expect(answers[1]!.threadId).not.toBe(answers[0]!.threadId);
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
