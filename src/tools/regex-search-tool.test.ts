import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';
import { compileRegex, searchRegex } from './regex-search-tool.js';

describe('regex_search', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
  });
  afterAll(async () => h.close());

  it('prints matching lines by file, with counts', async () => {
    const r = await h.call('regex_search', { pattern: '^def \\w+_\\w+\\(' });
    expect(r.isError).toBe(false);
    expect(r.text.split('\n')[0]).toMatch(/^\d+ matching lines in \d+ files \(searched 11 files\):$/);
    expect(r.text).toContain('shop/pricing.py\n  7: def round_money(amount: float) -> float:');
    expect(r.text).toContain('shop/models.py\n  45: def make_order(');
  });

  it('honours ignore_case, file_pattern and max_matches', async () => {
    const sensitive = await h.call('regex_search', { pattern: 'ORDER' });
    const insensitive = await h.call('regex_search', { pattern: 'ORDER', ignore_case: true, file_pattern: '*.go', max_matches: 2 });
    expect(sensitive.text).toMatch(/^No line matches \/ORDER\/ in 11 files\.$/);
    expect(insensitive.text.split('\n').slice(1, 4).join('\n')).toMatch(/^cmd\/server\/main.go\n {2}\d+: .*\n {2}\d+: /i);
    expect(insensitive.text).toMatch(/… \d+ more matching lines not shown; raise max_matches or narrow the pattern\.$/);
    expect(insensitive.text).not.toContain('.py');
  });

  it('refuses backreferences and lookaround with a sentence, and runs a classic catastrophic pattern in linear time', async () => {
    const back = await h.call('regex_search', { pattern: '(a)\\1' });
    expect(back.isError).toBe(true);
    expect(back.text).toMatch(/^Invalid pattern \(invalid escape sequence: `\\1`\)\. Patterns use RE2 syntax: no backreferences or lookaround/);
    expect((await h.call('regex_search', { pattern: '(?<=x)y' })).isError).toBe(true);
    mkdirSync(join(h.copy.root, 'data'), { recursive: true });
    writeFileSync(join(h.copy.root, 'data', 'long.py'), `S = "${'a'.repeat(50_000)}!"\n`);
    const evil = await h.call('regex_search', { pattern: '(a+)+$', file_pattern: 'data/' });
    expect(evil.text).toBe('No line matches /(a+)+$/ in 1 file.');
  });

  it('searches only indexed files (ignored ones are not read)', async () => {
    writeFileSync(join(h.copy.root, '.gitignore'), 'secret/\n');
    mkdirSync(join(h.copy.root, 'secret'), { recursive: true });
    writeFileSync(join(h.copy.root, 'secret', 'keys.py'), 'UNIQUE_MARKER_42 = 1\n');
    writeFileSync(join(h.copy.root, 'shop', 'marker.py'), 'UNIQUE_MARKER_42 = 2\n');
    const r = await h.call('regex_search', { pattern: 'UNIQUE_MARKER_\\d+' });
    expect(r.text).toContain('shop/marker.py\n  1: UNIQUE_MARKER_42 = 2');
    expect(r.text).not.toContain('secret/');
  });

  it('stops at the deadline and says how much was left unread', async () => {
    const store = h.repositories.select().index.store;
    let t = 0;
    const result = searchRegex(store, await compileRegex('x', false), { limit: 10, deadlineMs: 2, now: () => (t += 1) });
    expect(result.timedOut).toBe(true);
    expect(result.filesSearched).toBeLessThan(result.filesTotal);
  });
});
