import { describe, expect, it } from 'vitest';
import * as z from '../zod-mini.js';
import { correctiveMessage, parseJsonReply } from './json-reply.js';

const Plan = z.object({ files: z.array(z.object({ path: z.string(), reason: z.string() })), done: z.boolean() });
const good = { files: [{ path: 'src/a.ts', reason: 'entry' }], done: false };

describe('parseJsonReply', () => {
  it('parses plain JSON', () => {
    expect(parseJsonReply(JSON.stringify(good), Plan)).toEqual({ ok: true, value: good });
  });

  it('parses a ```json fence after leading prose', () => {
    const text = `Sure! Here is the plan:\n\n\`\`\`json\n${JSON.stringify(good, null, 2)}\n\`\`\`\nLet me know.`;
    expect(parseJsonReply(text, Plan)).toEqual({ ok: true, value: good });
  });

  it('parses a bare object surrounded by prose, with braces inside strings', () => {
    const text = `I think {this} is it: {"files":[{"path":"src/{x}.ts","reason":"has \\"}\\" in it"}],"done":true} -- end`;
    const result = parseJsonReply(text, Plan);
    expect(result).toEqual({ ok: true, value: { files: [{ path: 'src/{x}.ts', reason: 'has "}" in it' }], done: true } });
  });

  it('tolerates trailing commas but not inside strings', () => {
    const text = '{"files": [{"path": "a,]", "reason": "r",},], "done": true,}';
    expect(parseJsonReply(text, Plan)).toEqual({ ok: true, value: { files: [{ path: 'a,]', reason: 'r' }], done: true } });
  });

  it('skips an example object that does not validate and takes the real answer', () => {
    const text = `Format: {"example": 1}\nAnswer: ${JSON.stringify(good)}`;
    expect(parseJsonReply(text, Plan)).toEqual({ ok: true, value: good });
  });

  it('does not mistake a nested object for the answer', () => {
    const Inner = z.object({ path: z.string() });
    const result = parseJsonReply('{"wrapper": {"path": "a"}}', Inner);
    expect(result.ok).toBe(false);
  });

  it('reports schema issues with paths and a corrective message', () => {
    const result = parseJsonReply('```json\n{"files":[{"path":3}],"done":"no"}\n```', Plan);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('schema-mismatch');
    const paths = result.error.issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['$.files[0].path', '$.files[0].reason', '$.done']));
    const message = correctiveMessage(result.error);
    expect(message.role).toBe('user');
    expect(message.content).toContain('- at $.files[0].path:');
    expect(message.content).toMatch(/Reply again with only the corrected JSON object/);
  });

  it('distinguishes malformed JSON from no JSON at all', () => {
    const malformed = parseJsonReply('```json\n{"files": [unquoted]}\n```', Plan);
    expect(malformed.ok === false && malformed.error.kind).toBe('invalid-json');
    const none = parseJsonReply('I could not find anything.', Plan);
    expect(none.ok === false && none.error.kind).toBe('no-json');
    expect(none.ok === false && none.error.correction).toContain('no JSON object');
  });
});
