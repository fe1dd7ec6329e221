import { describe, expect, it } from 'vitest';
import { outcomeLine } from './team-worker.js';

describe('the worker log line of a finished job', () => {
  it('counts parsed files in the right number ("1 file parsed", "0 files parsed")', () => {
    const job = { repo: 'acme/shop', commit: '0123456789abcdef0123' };
    expect(outcomeLine(job, { ...job, result: 'built', buildMs: 420, parsedFiles: 1, startedFrom: 'scratch' })).toBe('acme/shop@0123456789ab: built in 420 ms (1 file parsed, from scratch)');
    expect(outcomeLine(job, { ...job, result: 'built', buildMs: 5, parsedFiles: 0, startedFrom: 'scratch' })).toContain('(0 files parsed,');
    expect(outcomeLine(job, { ...job, result: 'already-built' })).toBe('acme/shop@0123456789ab: already-built');
  });
});
