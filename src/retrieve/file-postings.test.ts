import { describe, expect, it } from 'vitest';
import { indexDocuments } from './file-documents.js';
import { parseFileIndex, serializeFileIndex, type PackedFileIndex } from './file-postings.js';

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
