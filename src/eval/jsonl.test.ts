import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonlAppender, readJsonlLines } from './jsonl.js';

describe('JsonlAppender', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'reponav-jsonl-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends whole lines and cuts a torn tail before appending again', async () => {
    const path = join(dir, 'p.jsonl');
    const first = JsonlAppender.open(path);
    first.append({ a: 1 });
    first.close();
    appendFileSync(path, '{"a": 2, "trunc'); // a crash mid-write
    const second = JsonlAppender.open(path);
    expect(second.repairedBytes).toBe('{"a": 2, "trunc'.length);
    second.append({ a: 3 });
    second.close();
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n{"a":3}\n');
  });

  it('truncates on request and repairs a file that is all torn', () => {
    const path = join(dir, 'q.jsonl');
    writeFileSync(path, 'garbage-without-newline');
    const appender = JsonlAppender.open(path);
    expect(appender.repairedBytes).toBe(23);
    appender.close();
    expect(readFileSync(path, 'utf8')).toBe('');
    writeFileSync(path, '{"x":1}\n');
    JsonlAppender.open(path, { truncate: true }).close();
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('reads lines with numbers, skipping blanks and reporting bad JSON', async () => {
    const path = join(dir, 'r.jsonl');
    writeFileSync(path, '{"a":1}\r\n\n  \nnope\n{"b":2}');
    const lines = [];
    for await (const line of readJsonlLines(path)) lines.push(line);
    expect(lines).toEqual([
      { lineNumber: 1, ok: true, value: { a: 1 } },
      { lineNumber: 4, ok: false, reason: expect.stringMatching(/invalid JSON/) },
      { lineNumber: 5, ok: true, value: { b: 2 } },
    ]);
  });
});
