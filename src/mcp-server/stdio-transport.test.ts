import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BoundedStdioTransport, requestIdFromPrefix } from './stdio-transport.js';

/** A started transport over in-memory pipes, with every message it delivers and every line it writes. */
async function harness(maxMessageBytes: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const written: any[] = [];
  let pending = '';
  stdout.on('data', (chunk) => {
    pending += String(chunk);
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
      written.push(JSON.parse(pending.slice(0, nl)));
      pending = pending.slice(nl + 1);
    }
  });
  const transport = new BoundedStdioTransport(stdin, stdout, { maxMessageBytes });
  const delivered: any[] = [];
  transport.onmessage = (message) => delivered.push(message);
  await transport.start();
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { stdin, transport, delivered, written, settle };
}

describe('BoundedStdioTransport', () => {
  it('skips an oversized line, answers it with its id, and delivers the next message', async () => {
    const h = await harness(1000);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { text: 'x'.repeat(5000) } });
    // Delivered in pieces, as a pipe would: the limit applies to the line, not to one chunk.
    for (let i = 0; i < big.length; i += 700) h.stdin.write(big.slice(i, i + 700));
    h.stdin.write('\n' + JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }) + '\n');
    await h.settle();
    expect(h.written).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringContaining('larger than the') } }]);
    expect(h.delivered).toEqual([{ jsonrpc: '2.0', id: 8, method: 'ping' }]);
  });

  it('answers a line that is not JSON with -32700 and one that is not JSON-RPC with -32600', async () => {
    const h = await harness(1000);
    h.stdin.write('{not json\n{"id": 3, "hello": true}\n\n');
    await h.settle();
    expect(h.written.map((m) => [m.id, m.error.code])).toEqual([
      [null, -32700],
      [3, -32600],
    ]);
    expect(h.delivered).toEqual([]);
  });

  it('reads the request id from the start of a message when it can', () => {
    expect(requestIdFromPrefix('{"jsonrpc":"2.0","id":42,"method":"x","params":{"q":"')).toBe(42);
    expect(requestIdFromPrefix('{"id": "abc-1", "method"')).toBe('abc-1');
    expect(requestIdFromPrefix('{"jsonrpc":"2.0","method":"tools/call","params":{"q":"aaaa')).toBeNull();
  });

  it('closes when stdin ends', async () => {
    const h = await harness(1000);
    let closed = false;
    h.transport.onclose = () => (closed = true);
    h.stdin.end();
    await h.settle();
    expect(closed).toBe(true);
  });
});
