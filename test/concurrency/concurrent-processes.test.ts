/**
 * Many processes, one index (#12 item 1): indexers, searches, an MCP server and
 * a CLI started together on one repository, several times over. Every process
 * must finish with the right answer: no `database is locked`, no stack trace,
 * no process giving up. The model under test is the "Concurrency" section of
 * docs/architecture.md.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe as group, expect, it } from 'vitest';
import { cleanupTempDirs } from '../cli/harness.js';
import { builtCliPath } from '../mcp/built-cli.js';
import { call } from '../mcp/mcp-client.js';
import { describe, expectedFind, freshCache, makeRepository, MODULES, runCliAsync } from './concurrency-fixture.js';

afterAll(cleanupTempDirs);

const ROUNDS = 2;

function expectClean(result: { code: number | null; stderr: string }, what: string, full: string): void {
  expect(result.code, `${what}: ${full}`).toBe(0);
  expect(result.stderr, `${what}: ${full}`).not.toMatch(/\n\s+at |SqliteError|database is locked/);
}

group('several processes on one index', () => {
  const root = makeRepository();

  it('two indexers started together both finish, and the index answers right', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const env = { REPONAV_CACHE_DIR: freshCache() };
      const runs = await Promise.all([runCliAsync(['index', root, '--workers', '0'], env), runCliAsync(['index', root, '--workers', '0'], env)]);
      for (const [n, run] of runs.entries()) {
        expectClean(run, `round ${round} indexer ${n}`, describe(run));
        expect(run.stdout, describe(run)).toMatch(new RegExp(`^Indexed ${MODULES + 1} files of `));
      }
      const found = await runCliAsync(['find', 'function', `compute_value_${round + 7}`, '--repo', root], env);
      expectClean(found, 'find after', describe(found));
      expect(found.stdout).toContain(expectedFind(round + 7));
    }
  }, 180_000);

  it('searches started while an indexer runs answer right (waiting, or labelled provisional)', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const env = { REPONAV_CACHE_DIR: freshCache() };
      const indexer = runCliAsync(['index', root, '--workers', '0'], env);
      await new Promise((r) => setTimeout(r, 150 * round));
      const finds = [3, 50, 120].map((i) => runCliAsync(['find', 'function', `compute_value_${i}`, '--repo', root], env));
      const search = runCliAsync(['search', 'where is compute_value_42 computed', '--repo', root, '--format', 'file-only'], env);
      const status = runCliAsync(['status', root], env);
      const [indexed, ...rest] = await Promise.all([indexer, ...finds, search]);
      expectClean(indexed, `round ${round} indexer`, describe(indexed));
      for (const [n, i] of [3, 50, 120].entries()) {
        expectClean(rest[n], `round ${round} find ${i}`, describe(rest[n]));
        expect(rest[n].stdout, describe(rest[n])).toContain(expectedFind(i));
      }
      const searched = rest[3];
      expectClean(searched, `round ${round} search`, describe(searched));
      // A never-indexed tree larger than the focused first index answers at once from a labelled
      // text scan while the indexer holds the index (in the file-only shape too); otherwise the search waits and ranks.
      expect(searched.stdout, describe(searched)).toMatch(/^1\. pkg\/mod_42\.py /m);
      if (searched.stdout.startsWith('[PROVISIONAL]')) expect(searched.stdout, describe(searched)).toMatch(/^\[FILES\] .*\(text scan\)$/m);
      // status never waits and never writes: it reports whatever is committed.
      const reported = await status;
      expect([0, 1], describe(reported)).toContain(reported.code);
      expect(reported.stderr, describe(reported)).not.toMatch(/\n\s+at |SqliteError/);
    }
  }, 180_000);

  it('an MCP server, a CLI indexer and CLI lookups on one repository all answer right', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const cache = freshCache();
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [builtCliPath(), 'mcp', '--repo', root, '--index-wait', '120'],
        env: { ...getDefaultEnvironment(), REPONAV_CACHE_DIR: cache },
        stderr: 'pipe',
      });
      let serverErr = '';
      transport.stderr?.on('data', (c) => (serverErr += String(c)));
      const client = new Client({ name: 'reponav-concurrency-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const env = { REPONAV_CACHE_DIR: cache };
        const [viaMcp, viaMcp2, indexed, found] = await Promise.all([
          call(client, 'find_function', { name: `compute_value_${10 + round}` }),
          call(client, 'find_class', { name: 'Widget99' }),
          runCliAsync(['index', root, '--workers', '0'], env),
          runCliAsync(['find', 'function', `compute_value_${20 + round}`, '--repo', root], env),
        ]);
        expect(viaMcp.isError, viaMcp.text).toBe(false);
        expect(viaMcp.text).toContain(`pkg/mod_${10 + round}.py:9-41`);
        expect(viaMcp2.isError, viaMcp2.text).toBe(false);
        expect(viaMcp2.text).toContain('pkg/mod_99.py');
        expectClean(indexed, `round ${round} CLI indexer`, describe(indexed));
        expectClean(found, `round ${round} CLI find`, describe(found));
        expect(found.stdout).toContain(expectedFind(20 + round));
        // And the server still answers after the CLI wrote the index.
        const after = await call(client, 'find_function', { name: 'compute_value_150' });
        expect(after.text).toContain('pkg/mod_150.py:9-41');
        expect(serverErr).not.toMatch(/\n\s+at |SqliteError|database is locked/);
      } finally {
        await client.close();
      }
    }
  }, 240_000);
});
