/**
 * Long issue texts over MCP (stdio and Streamable HTTP): a query of LocBench's
 * longest size (38,834 characters, mostly a pasted log) is accepted and
 * searched as its reduced form; past the accepted size it is an isError naming
 * the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './mcp-client.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';
import { serve, type Transport } from './serve-fixture.js';

describe.each<Transport>(['stdio', 'http'])('long queries over MCP (%s)', (transport) => {
  let copy: FixtureCopy;
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    copy = copyFixture();
    server = await serve(transport, copy);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    copy?.cleanup();
  });

  it('accepts a 38,834-character issue and answers from its title, prose and traceback', async () => {
    const log = Array.from({ length: 600 }, (_, i) => `[debug] 2024-01-0${i % 9} poller ${i}: nothing queued, sleeping`).join('\n');
    let issue = `Tax is applied twice to the order total\n\nCalling \`apply_tax\` on an order already taxed adds tax again.\n\n\`\`\`\n${log}\n\`\`\`\n`;
    issue = issue + ' '.repeat(38_834 - issue.length);
    expect(issue.length).toBe(38_834);
    for (const tool of ['search', 'snippet_search']) {
      const answer = await call(server.connection.client, tool, { query: issue });
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.text).toContain('shop/pricing.py');
    }
  }, 60_000);

  it('refuses a query past 200,000 characters, naming the limit', async () => {
    const answer = await call(server.connection.client, 'search', { query: 'order '.repeat(40_000) });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('query is limited to 200000 characters');
  });
});
