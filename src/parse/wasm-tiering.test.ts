import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { hostChoosesTiering, TIER_UP_FROM_FILES, tieringFor } from './wasm-tiering.js';

const TIERING_FLAGS = ['--wasm-tiering-budget=1000', '--liftoff-only', '--no-liftoff', '--wasm-tier-up', '--no-wasm-tier-up', '--wasm-dynamic-tiering', '--no-wasm-dynamic-tiering'];
const OTHER_FLAGS = ['--max-old-space-size=4096', '--enable-source-maps', '--inspect', '--wasm-tiering-budgetx', '--liftoff-onlyx', '--no-warnings', '--stack-size=2000', '--wasm-max-table-size=10'];

describe('wasm tiering', () => {
  it('holds tier-up below the file threshold and leaves V8 its default at and above it', () => {
    expect(tieringFor(0)).toBe('held');
    expect(tieringFor(TIER_UP_FROM_FILES - 1)).toBe('held');
    expect(tieringFor(TIER_UP_FROM_FILES)).toBe('v8');
    expect(tieringFor(50_000)).toBe('v8');
  });

  it("keeps the host's own tiering flag wherever it is given, and only then (generated)", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = mulberry32(seed);
      const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
      const others = Array.from({ length: Math.floor(next() * 4) }, () => pick(OTHER_FLAGS));
      const hasHost = next() < 0.5;
      const flag = pick(TIERING_FLAGS);
      const inArgv = next() < 0.5;
      const argv = [...others, ...(hasHost && inArgv ? [flag] : [])].sort(() => next() - 0.5);
      const nodeOptions = [...others.slice(0, 1), ...(hasHost && !inArgv ? [flag] : [])].join(' ');
      expect(hostChoosesTiering(argv, nodeOptions || undefined), `seed ${seed}: ${JSON.stringify({ argv, nodeOptions })}`).toBe(hasHost);
    }
  });
});
