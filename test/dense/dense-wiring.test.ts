/**
 * Opt-in dense retrieval as users reach it: the `--embedder` flags of the CLI
 * and the MCP tool context, against the fake embeddings server on 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../src/retrieve/dense/create-embedder.js';
import { createMcpService, type McpService } from '../../src/mcp-server/mcp-service.js';
import { callTool } from '../../src/tools/tool-registry.js';
import { RepositorySet } from '../../src/tools/repository-set.js';
import { runCliInProcess } from '../cli/in-process-cli.js';
import { startFakeOpenAIServer, type FakeServer } from '../helpers/fake-openai-server.js';
import { openDenseFixture, type DenseFixture } from './dense-fixture.js';

let server: FakeServer;
let fixture: DenseFixture;
let cacheDir: string;

beforeAll(async () => {
  server = await startFakeOpenAIServer({ embeddingMode: 'bag-of-words', embeddingDimension: 64 });
  fixture = await openDenseFixture();
  cacheDir = mkdtempSync(join(tmpdir(), 'reponav-dense-cli-'));
});
afterAll(async () => {
  fixture.close();
  await server.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

/** Runs the CLI program in this process beside the fake server (test/cli/in-process-cli.ts): nothing here is about process start-up. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const result = await runCliInProcess(args, { cacheDir, env: { OPENAI_API_KEY: '' } });
  return { code: result.code ?? 1, stdout: result.stdout, stderr: result.stderr };
}

const embeddingRequests = () => server.requests.filter((r) => r.path.endsWith('/embeddings')).length;

describe('--embedder on the CLI', () => {
  it('index embeds every searchable chunk once, then nothing; search fuses and answers', async () => {
    const flags = ['--embedder', 'openai-compatible', '--embed-model', 'fake-embed', '--embed-base-url', server.openaiBaseUrl];
    const first = await cli(['index', fixture.root, '--json', ...flags]);
    expect(first.code, first.stderr).toBe(0);
    const counts = JSON.parse(first.stdout).embeddings;
    expect(counts.embedded).toBeGreaterThan(0);
    expect(counts.embedded + counts.cached).toBe(counts.total);
    const second = await cli(['index', fixture.root, '--json', ...flags]);
    expect(JSON.parse(second.stdout).embeddings).toMatchObject({ embedded: 0, cached: counts.total });

    const before = embeddingRequests();
    const search = await cli(['search', 'hash the password with a salt', '--repo', fixture.root, '--format', 'json', ...flags]);
    expect(search.code, search.stderr).toBe(0);
    expect(embeddingRequests()).toBeGreaterThan(before); // the query itself was embedded
    expect(JSON.parse(search.stdout).functions[0].id).toBe('auth/login.py:hash_password');
  });

  it('a different embedding model than the stored vectors is refused with one clear error', async () => {
    const result = await cli(['search', 'password', '--repo', fixture.root, '--embedder', 'openai-compatible', '--embed-model', 'other-model', '--embed-base-url', server.openaiBaseUrl]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*fake-embed.*--reembed/m);
  });

  it('an unreachable embeddings server is one clear error, exit 1', async () => {
    const result = await cli(['search', 'password', '--repo', fixture.root, '--embedder', 'openai-compatible', '--embed-model', 'fake-embed', '--embed-base-url', 'http://127.0.0.1:9/v1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*127\.0\.0\.1:9/m);
  });
});

describe('embedder in the MCP tool context', () => {
  let service: McpService;
  beforeAll(() => {
    const embedder = createEmbedder({ kind: 'openai-compatible', model: 'fake-embed', baseUrl: server.openaiBaseUrl, env: {} });
    service = createMcpService(RepositorySet.of([fixture.repository]), { embedder });
  });

  it('semantic_search says it fused lexical and dense hits, embedding what was missing', async () => {
    const before = embeddingRequests();
    const result = await callTool(service.registry, 'semantic_search', { query: 'hash the password with a salt' }, service.context);
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('fused lexical + dense');
    expect(result.text).toContain('auth/login.py');
    expect(embeddingRequests()).toBeGreaterThan(before);
  });
});
