import { describe, expect, it } from 'vitest';
import { failedParse, parseSourceText } from '../../parse/parse-source.js';
import { decodeParse, encodeParse } from './parsed-blob.js';

describe('stored parse', () => {
  it('gives back the same parse, in fewer bytes than its JSON', async () => {
    const source = Array.from({ length: 40 }, (_, i) => `def handler_${i}(request, response):\n    return request.value_${i}\n`).join('\n');
    const { parsed } = await parseSourceText('app/handlers.py', new TextEncoder().encode(source));
    const stored = encodeParse(parsed);
    expect(decodeParse(stored.parsed)).toEqual(JSON.parse(JSON.stringify(parsed)));
    expect(stored.parsed.byteLength).toBeLessThan(JSON.stringify(parsed).length / 3);
    expect(stored.failure).toBeNull();
  });

  it('keeps a failed parse’s reason beside the bytes, for SQL to read', () => {
    const stored = encodeParse(failedParse('a.py', new TextEncoder().encode('x = 1\n'), 'the parse worker crashed'));
    expect(stored.failure).toBe('the parse worker crashed');
    expect(decodeParse(stored.parsed).status).toBe('failed');
  });
});
