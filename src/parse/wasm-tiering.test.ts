import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { createWasmTieringChooser, HELD_FLAG, hostChoosesTiering, TIER_UP_FROM_FILES, tieringFor, V8_DEFAULT_FLAG } from './wasm-tiering.js';

const TIERING_FLAGS = ['--wasm-tiering-budget=1000', '--liftoff-only', '--no-liftoff-only', '--liftoff', '--no-liftoff', '--wasm-tier-up', '--no-wasm-tier-up', '--wasm-dynamic-tiering', '--no-wasm-dynamic-tiering'];
const OTHER_FLAGS = ['--max-old-space-size=4096', '--enable-source-maps', '--inspect', '--wasm-tiering-budgetx', '--liftoff-onlyx', '--no-liftoff-onlyx', '--liftoffx', '--no-warnings', '--stack-size=2000', '--wasm-max-table-size=10'];

describe('wasm tiering', () => {
  it('holds tier-up below the file threshold and leaves V8 its default at and above it', () => {
    expect(tieringFor(0)).toBe('held');
    expect(tieringFor(TIER_UP_FROM_FILES - 1)).toBe('held');
    expect(tieringFor(TIER_UP_FROM_FILES)).toBe('v8');
    expect(tieringFor(50_000)).toBe('v8');
  });

  it("keeps the host's own tiering flag wherever it is among its arguments, and only then (generated)", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = mulberry32(seed);
      const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
      const others = Array.from({ length: Math.floor(next() * 4) }, () => pick(OTHER_FLAGS));
      const hasHost = next() < 0.5;
      const argv = [...others, ...(hasHost ? [pick(TIERING_FLAGS)] : [])].sort(() => next() - 0.5);
      expect(hostChoosesTiering(argv), `seed ${seed}: ${JSON.stringify(argv)}`).toBe(hasHost);
    }
  });

  it('sets the flag a job needs only when it differs from the last one set, and V8 keeps its own until a small job (generated)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = mulberry32(seed);
      const set: string[] = [];
      const hostFlag = next() < 0.2 ? '--no-liftoff-only' : undefined;
      const chooser = createWasmTieringChooser(() => ({ execArgv: hostFlag ? [hostFlag] : [], setFlags: (flags) => set.push(flags) }));
      const jobs: Array<number | 'first-parse' | 'worker-parse'> = Array.from({ length: 1 + Math.floor(next() * 8) }, () => {
        const r = next();
        return r < 0.15 ? 'first-parse' : r < 0.25 ? 'worker-parse' : Math.floor(next() * 2 * TIER_UP_FROM_FILES);
      });
      // The model: the flag in force after each step (null: V8's own default), and whether anything decided yet.
      let flag: string | null = null;
      let decided = false;
      for (const job of jobs) {
        const before = set.length;
        const files = job === 'first-parse' ? (decided ? null : 0) : job === 'worker-parse' ? null : job;
        if (job === 'first-parse') chooser.firstParse(true);
        else if (job === 'worker-parse') chooser.firstParse(false);
        else expect(chooser.prepare(job), `seed ${seed}: ${JSON.stringify(jobs)}`).toBe(hostFlag ? 'host' : tieringFor(job));
        if (files !== null) {
          decided = true;
          const want: string | null = hostFlag ? flag : files < TIER_UP_FROM_FILES ? HELD_FLAG : flag === null ? null : V8_DEFAULT_FLAG;
          const changed = want !== flag;
          flag = want;
          expect(set.slice(before), `seed ${seed}: ${JSON.stringify(jobs)} at ${String(job)}`).toEqual(changed ? [want] : []);
        } else expect(set.length, `seed ${seed}: ${JSON.stringify(jobs)} at ${String(job)}`).toBe(before);
      }
      if (hostFlag) expect(set, `seed ${seed}`).toEqual([]);
    }
  });
});
