import { describe, expect, it } from 'vitest';
import { indexDocuments } from './file-documents.js';
import { FilePostings, parseFileIndex, parsePostings, serializeFileIndex, serializePostings, touchedTerms, type PackedFileIndex } from './file-postings.js';

const plain = (index: PackedFileIndex) => ({
  paths: index.paths,
  lengths: [...index.lengths],
  averageLength: index.averageLength,
  postings: [...index.postings.entries()].map(([token, list]) => [token, [...list.files], [...list.counts]]),
});

describe('packed file-level postings', () => {
  const index = indexDocuments(
    ['pkg/cookies.py', 'pkg/näive\nname.py', 'web/ä.ts'],
    [['cookie', 'jar', 'jar'], ['jar', 'http'], ['http', 'http', 'client']],
  );

  it('give each term its files and counts', () => {
    expect(index.postings.size).toBe(4);
    expect([...index.postings.get('jar')!.files]).toEqual([0, 1]);
    expect([...index.postings.get('jar')!.counts]).toEqual([2, 1]);
    expect([...index.postings.get('http')!.counts]).toEqual([1, 2]);
    expect(index.postings.get('missing')).toBeUndefined();
  });

  it('read back from their bytes equal to what was written, paths with a newline and non-ASCII included', () => {
    // The cache payload follows a fingerprint line, so it is read from an odd offset.
    const bytes = Buffer.concat([Buffer.from('x'), serializeFileIndex(index)]).subarray(1);
    const read = parseFileIndex(bytes);
    expect(read).not.toBeNull();
    expect(plain(read!)).toEqual(plain(index));
    expect([...read!.postings.get('client')!.files]).toEqual([2]);
  });

  it('find every term they hold and no other, by binary search over ascending terms (non-ASCII too)', () => {
    const words = ['zeta', 'alpha', 'Äpfel', 'apfel', '日本', 'mid', 'a', 'zz', '_x', '9'];
    const many = indexDocuments(
      words.map((_, i) => `f${i}.py`),
      words.map((w, i) => [w, words[(i + 1) % words.length]!]),
    );
    const terms = [...many.postings.entries()].map(([t]) => t);
    expect(terms).toEqual([...words].sort());
    const read = parseFileIndex(serializeFileIndex(many))!;
    for (const postings of [many.postings, read.postings]) {
      for (const word of words) expect(postings.get(word)?.files.length, word).toBe(2);
      for (const absent of ['', 'b', 'zzz', 'Äpfe', '日', 'alph']) expect(postings.get(absent), absent).toBeUndefined();
    }
  });

  it('round-trip an empty index', () => {
    const empty = indexDocuments([], []);
    expect(plain(parseFileIndex(serializeFileIndex(empty))!)).toEqual(plain(empty));
  });

  it('treat truncated, extended or foreign bytes as a miss', () => {
    const bytes = serializeFileIndex(index);
    expect(parseFileIndex(bytes.subarray(0, bytes.length - 1))).toBeNull();
    expect(parseFileIndex(Buffer.concat([bytes, Buffer.from('z')]))).toBeNull();
    expect(parseFileIndex(Buffer.from('{"paths":[],"lengths":[],"postings":[]}'))).toBeNull();
    expect(parseFileIndex(Buffer.alloc(3))).toBeNull();
  });
});

/** A seeded pseudo-random source (tests must be repeatable). */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

describe('touchedTerms', () => {
  it('finds exactly the terms whose list holds a changed file, searched (few changes) or by one pass (many) (seeded random postings)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const files = 1 + Math.floor(next() * 60);
      const lists = Array.from({ length: Math.floor(next() * 50) }, () => {
        const density = next();
        return Array.from({ length: files }, (_, f) => f).filter(() => next() < density);
      });
      const starts = Uint32Array.from([0, ...lists.map((_, t) => lists.slice(0, t + 1).reduce((n, l) => n + l.length, 0))]);
      const packed = { starts, files: Uint32Array.from(lists.flat()) };
      const changed = Array.from({ length: files }, (_, f) => f).filter(() => next() < (seed % 3 === 0 ? 0.5 : 0.08));
      const isChanged = new Uint8Array(files);
      for (const f of changed) isChanged[f] = 1;
      const expected = lists.flatMap((list, t) => (list.some((f) => isChanged[f]) ? [t] : []));
      expect(touchedTerms(packed, changed, isChanged), `seed ${seed} (${changed.length} changed)`).toEqual(expected);
    }
  });
});

describe('serializePostings', () => {
  it('round-trips any postings, and any cut or foreign payload is refused (seeded random postings)', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(seed);
      const lists = new Map<string, { files: number[]; counts: number[] }>();
      for (let t = 0; t < Math.floor(next() * 30); t++) {
        const files = Array.from({ length: 40 }, (_, f) => f).filter(() => next() < 0.3);
        if (files.length > 0) lists.set(['é', 'x', 'tok', '_a', '日本'][t % 5]! + t, { files, counts: files.map(() => 1 + Math.floor(next() * 9)) });
      }
      const postings = FilePostings.fromLists(lists);
      const bytes = serializePostings(postings);
      const back = parsePostings(bytes);
      const plainOf = (p: FilePostings) => [...p.entries()].map(([term, list]) => [term, [...list.files], [...list.counts]]);
      expect(back && plainOf(back), `seed ${seed}`).toEqual(plainOf(postings));
      expect(parsePostings(bytes.subarray(0, bytes.length - 1 - Math.floor(next() * 8))), `seed ${seed}: cut`).toBeNull();
    }
    expect(parsePostings(Buffer.from('not postings at all'))).toBeNull();
  });
});
