import { describe, expect, it } from 'vitest';
import { isReponavError } from '../../errors.js';
import { DEFAULT_FEEDBACK, DEFAULT_TUNING, resolveTuning, type RetrievalTuning } from '../retrieval-tuning.js';
import { checkTunedOptions, MOVED_TUNING_KEYS, tuningSchemas } from './schema.js';
import { DEFAULT_TERM_COVERAGE } from '../term-coverage.js';
import { DEFAULT_QUERY_WEIGHTS } from '../query-parser.js';
import { mulberry32 as seeded } from '../../../test/helpers/mulberry32.js';

type Leaf = { path: string[]; value: unknown };

/** Every leaf (a number, string or boolean) under `value`, with its path. */
function leaves(value: unknown, path: string[] = []): Leaf[] {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([key, inner]) => leaves(inner, [...path, key]));
  }
  return [{ path, value }];
}

/** Every knob a tuning may set: the defaults' leaves and the opt-in signals' fields (off when absent, so not in the defaults). */
const KNOBS: Leaf[] = [
  ...leaves(DEFAULT_TUNING),
  ...leaves({ mode: 'either', weight: 0.5, paths: true }, ['query', 'unknownNames']),
  ...leaves(DEFAULT_FEEDBACK, ['lexical', 'feedback']),
  ...leaves(DEFAULT_QUERY_WEIGHTS, ['titleFiles', 'queryWeights']),
  ...leaves(DEFAULT_TERM_COVERAGE, ['symbolRanking', 'coverage']),
];

/** Another value of a knob's kind that the schema accepts (strings keep their valid value: they are enums). */
function otherValue(leaf: Leaf, random: () => number): unknown {
  if (typeof leaf.value === 'number') return Math.round(random() * 1000) / 100;
  if (typeof leaf.value === 'boolean') return random() < 0.5;
  return leaf.value;
}

function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  let at = target;
  for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
  at[path[path.length - 1]!] = value;
}

function getAt(source: unknown, path: string[]): unknown {
  return path.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], source);
}

describe('resolveTuning', () => {
  it('is the defaults object, equal and not shared mutable state, for no tuning', () => {
    expect(resolveTuning({})).toEqual(DEFAULT_TUNING);
    const resolved = resolveTuning({});
    resolved.evidence.fileName.weight = 99;
    expect(DEFAULT_TUNING.evidence.fileName.weight).not.toBe(99);
  });

  it('takes every knob given and the default for every other, at every depth (300 generated tunings)', () => {
    const before = JSON.stringify(DEFAULT_TUNING);
    for (let seed = 1; seed <= 300; seed++) {
      const random = seeded(seed);
      const given: Record<string, unknown> = {};
      const set = new Map<string, unknown>();
      for (const leaf of KNOBS) {
        if (random() >= 0.2) continue;
        const value = otherValue(leaf, random);
        setAt(given, leaf.path, value);
        set.set(leaf.path.join('.'), value);
      }
      const resolved = resolveTuning(given as RetrievalTuning);
      const context = `seed ${seed}: ${JSON.stringify(given)}`;
      for (const leaf of KNOBS) {
        const key = leaf.path.join('.');
        const expected = set.has(key) ? set.get(key) : getAt(DEFAULT_TUNING, leaf.path);
        expect(getAt(resolved, leaf.path), `${context} at ${key}`).toEqual(expected);
      }
      // Nothing the tuning did not name appears (an opt-in stays off), and the defaults are untouched.
      expect(leaves(resolved).filter((l) => l.value !== undefined).map((l) => l.path.join('.')).sort(), context).toEqual(
        KNOBS.filter((l) => getAt(DEFAULT_TUNING, l.path) !== undefined || set.has(l.path.join('.'))).map((l) => l.path.join('.')).sort(),
      );
      expect(JSON.stringify(DEFAULT_TUNING), context).toBe(before);
      // The schema accepts every generated tuning: the defaults' shape and the schema's agree.
      expect(() => checkTunedOptions(given), context).not.toThrow();
    }
  });
});

describe('checkTunedOptions', () => {
  const refusal = (options: object): string => {
    try {
      checkTunedOptions(options);
    } catch (error) {
      expect(isReponavError(error, 'BAD_INPUT')).toBe(true);
      return (error as Error).message;
    }
    return '';
  };

  it('refuses every knob of the flat settings with its new place, and the new place is a knob the schema takes', () => {
    const knobPaths = new Set(KNOBS.map((l) => l.path.join('.')));
    const groups = new Set(['query.weights', 'lexical.fieldWeights', 'lexical.feedback', 'query.unknownNames', 'titleFiles.queryWeights']);
    for (const [old, now] of Object.entries(MOVED_TUNING_KEYS)) {
      expect(refusal({ [old]: 1 }), old).toContain(`'${old}' (now '${now}')`);
      // The table names real places: a knob, or a group of knobs.
      expect(knobPaths.has(now) || groups.has(now), `${old} → ${now}`).toBe(true);
    }
  });

  it('names a misspelt key at any depth and a wrong type, in generated tunings (200 seeds)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = seeded(seed);
      const leaf = KNOBS[Math.floor(random() * KNOBS.length)]!;
      const depth = 1 + Math.floor(random() * leaf.path.length);
      const path = leaf.path.slice(0, depth);
      const misspelt = [...path.slice(0, -1), `${path[path.length - 1]}x`];
      const options: Record<string, unknown> = {};
      setAt(options, misspelt, depth === leaf.path.length ? 1 : {});
      const where = misspelt.slice(0, -1).join('.');
      expect(refusal(options), `seed ${seed}: ${misspelt.join('.')}`).toMatch(new RegExp(`${where ? `${where.replace(/\./g, '\\.')}: ` : ''}unknown setting '${misspelt[misspelt.length - 1]}'`));
      const mistyped: Record<string, unknown> = {};
      setAt(mistyped, leaf.path, 'not-a-value');
      expect(refusal(mistyped), `seed ${seed}: ${leaf.path.join('.')}`).toContain(leaf.path.join('.'));
    }
  });

  it('passes code members and the user choices, and builds no schema for them alone', () => {
    expect(refusal({ pathFilter: () => true, fuse: (hits: unknown[]) => hits, features: 5, lexicalMemo: {}, rankerModel: {} })).toBe('');
    expect(refusal({ documents: 'off', ranker: 'hand', filesOnly: true, queryMode: 'plain', chunkKinds: ['function'], maxDocuments: 3 })).toBe('');
    expect(refusal({ ranker: 'best' })).toContain('ranker');
    expect(tuningSchemas()).toBe(tuningSchemas());
  });
});
