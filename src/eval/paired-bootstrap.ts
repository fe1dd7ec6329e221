/**
 * The paired bootstrap over instances: is system B better than system A on
 * the same instances, or is the difference noise? Resampling instances with
 * replacement (the same draw for both systems, so per-instance difficulty
 * cancels) gives the distribution of the mean difference, from which come a
 * percentile confidence interval and a two-sided p-value.
 *
 * Hand-written rather than a statistics package: it is thirty lines, it must
 * be seeded and byte-for-byte reproducible across machines, and it must reuse
 * one resampling draw for many metrics at once (common random numbers), which
 * general-purpose packages do not offer.
 */

/** Settings of {@link pairedBootstrap}. */
export interface PairedBootstrapOptions {
  /** Bootstrap resamples (default 10,000). */
  resamples?: number;
  /** Seed of the resampling draw (default 1); the same seed gives the same figures. */
  seed?: number;
  /** Coverage of the interval (default 0.95). */
  confidence?: number;
}

/** The paired comparison of one measure between system A (baseline) and system B. */
export interface PairedDifference {
  /** Paired instances. */
  n: number;
  meanA: number;
  meanB: number;
  /** meanB − meanA. */
  difference: number;
  /** Percentile bootstrap interval of the difference. */
  low: number;
  high: number;
  /**
   * Two-sided p-value of "no difference": the share of resampled differences
   * at least as far from the observed one as the observed one is from zero
   * (the bootstrap distribution shifted to mean zero), `(1 + count) / (1 + resamples)`.
   * 1 when the observed difference is 0.
   */
  pValue: number;
  /** Instances where B scored higher / lower / the same. */
  won: number;
  lost: number;
  tied: number;
}

/** Default settings: 10,000 resamples, seed 1, 95% interval. */
export const DEFAULT_BOOTSTRAP = { resamples: 10_000, seed: 1, confidence: 0.95 } as const;

/**
 * A seeded uniform generator in [0, 1) (mulberry32): small, fast, and the same
 * sequence on every platform, which Math.random is not.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The q-quantile (0..1) of ascending `sorted` values, linearly interpolated between order statistics (numpy's default). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = Math.min(1, Math.max(0, q)) * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

/**
 * Paired bootstrap of several measures over the same instances with one
 * resampling draw. `measures` maps a name to the per-instance scores of A and
 * B (equal lengths, the same instance order for every measure). Throws on
 * mismatched lengths.
 */
export function pairedBootstrapMany(
  measures: ReadonlyMap<string, { a: readonly number[]; b: readonly number[] }>,
  options: PairedBootstrapOptions = {},
): Map<string, PairedDifference> {
  const resamples = Math.max(1, Math.floor(options.resamples ?? DEFAULT_BOOTSTRAP.resamples));
  const confidence = options.confidence ?? DEFAULT_BOOTSTRAP.confidence;
  const entries = [...measures];
  const n = entries[0]?.[1].a.length ?? 0;
  const diffs = entries.map(([name, { a, b }]) => {
    if (a.length !== n || b.length !== n) throw new Error(`paired bootstrap: ${name} has ${a.length} and ${b.length} scores, expected ${n} each`);
    return Float64Array.from(a, (value, i) => b[i]! - value);
  });
  const samples = entries.map(() => new Float64Array(resamples));
  if (n > 0) {
    const random = seededRandom(options.seed ?? DEFAULT_BOOTSTRAP.seed);
    const draw = new Int32Array(n);
    for (let r = 0; r < resamples; r++) {
      for (let i = 0; i < n; i++) draw[i] = Math.floor(random() * n);
      for (let m = 0; m < diffs.length; m++) {
        const d = diffs[m]!;
        let sum = 0;
        for (let i = 0; i < n; i++) sum += d[draw[i]!]!;
        samples[m]![r] = sum / n;
      }
    }
  }
  const out = new Map<string, PairedDifference>();
  entries.forEach(([name, { a, b }], m) => {
    const d = diffs[m]!;
    const difference = mean(d);
    const sorted = samples[m]!.sort();
    let extreme = 0;
    for (const value of sorted) if (Math.abs(value - difference) >= Math.abs(difference) - 1e-12) extreme++;
    let won = 0;
    let lost = 0;
    for (const value of d) {
      if (value > 0) won++;
      else if (value < 0) lost++;
    }
    out.set(name, {
      n,
      meanA: mean(a),
      meanB: mean(b),
      difference,
      low: n === 0 ? 0 : quantile(sorted, (1 - confidence) / 2),
      high: n === 0 ? 0 : quantile(sorted, 1 - (1 - confidence) / 2),
      pValue: difference === 0 ? 1 : (1 + extreme) / (1 + resamples),
      won,
      lost,
      tied: n - won - lost,
    });
  });
  return out;
}

function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
}

/** Paired bootstrap of one measure; see {@link pairedBootstrapMany}. */
export function pairedBootstrap(a: readonly number[], b: readonly number[], options: PairedBootstrapOptions = {}): PairedDifference {
  return pairedBootstrapMany(new Map([['measure', { a, b }]]), options).get('measure')!;
}

/** True when the interval excludes zero (the difference is not noise at the interval's level). */
export function isSignificant(result: Pick<PairedDifference, 'low' | 'high'>): boolean {
  return result.low > 0 || result.high < 0;
}
