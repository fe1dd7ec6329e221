/**
 * The README's MCP client set-up, word for word: each snippet under "Client
 * set-up" is read out of README.md, its placeholders replaced (the repository
 * by the bundled sample, the cache by a temp folder, the port by a free one),
 * and the server it describes started and asked for its tools with the
 * official SDK client. `reponav` on PATH is a link to dist/cli/main.js, which
 * is what `npm install -g .` and `npm link` create.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPT_IN_TOOLS } from '../../src/mcp-server/index.js';
import { TOOL_NAMES } from '../../src/tools/tool-types.js';
import { call, connectHttp, connectStdio, getDefaultEnvironment } from '../mcp/mcp-client.js';
import { findBlock, PROJECT_ROOT, readDoc } from './readme.js';

const HEADING = {
  claude: 'Claude Code',
  cursor: 'Cursor (`.cursor/mcp.json`)',
  vscode: 'VS Code (`.vscode/mcp.json`)',
  stdio: 'Any stdio client',
  http: 'Streamable HTTP with a token',
};
const SAMPLE = join(PROJECT_ROOT, 'sample/bookshop');
const work = mkdtempSync(join(tmpdir(), 'reponav-setup-'));
const bin = join(work, 'bin');
const defaultCache = join(work, 'default-cache');
const snippetCache = join(work, 'snippet-cache');
const readme = readDoc();
/** What a server offers without --tools: every tool but the opt-in ones (semantic_search, the git history tools). */
const DEFAULT_TOOLS = TOOL_NAMES.filter((name) => !OPT_IN_TOOLS.includes(name));
const started: ChildProcess[] = [];

/** Replaces the README's placeholders with this machine's values. */
function fill(text: string): string {
  return text
    .replaceAll('/abs/path/to/reponav/', `${PROJECT_ROOT}/`)
    .replaceAll('/abs/path/to/repo', SAMPLE)
    .replaceAll('${workspaceFolder}', SAMPLE)
    .replaceAll('/abs/path/to/cache', snippetCache);
}

/** The environment a client passes on: the test's, with `reponav` on PATH and the cache kept in a temp folder. */
function clientEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...getDefaultEnvironment(), PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, REPONAV_CACHE_DIR: defaultCache, ...extra };
}

/** Starts the stdio server a snippet describes and checks it serves the tools on the sample. */
async function expectStdioServer(spec: { command: string; args: string[]; env?: Record<string, string> }): Promise<void> {
  const connection = await connectStdio('modern', { command: spec.command, args: spec.args, env: clientEnv(spec.env) });
  try {
    const { tools } = await connection.client.listTools();
    expect(tools.map((t: { name: string }) => t.name)).toEqual(DEFAULT_TOOLS);
    const answer = await call(connection.client, 'search', { query: 'discount codes above 50% should be rejected at checkout' });
    expect(answer.text).toContain('[FILE] billing/invoice.py');
  } finally {
    await connection.close();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

beforeAll(() => {
  const cli = join(PROJECT_ROOT, 'dist/cli/main.js');
  if (!existsSync(cli)) throw new Error('dist/ is missing: run `npm run build` first (npm test does).');
  mkdirSync(bin);
  symlinkSync(cli, join(bin, 'reponav'));
});

afterAll(() => {
  for (const child of started) child.kill();
  rmSync(work, { recursive: true, force: true });
});

describe('README client set-up snippets', () => {
  it('Claude Code: `claude mcp add NAME -- COMMAND…` starts the server', async () => {
    const line = fill(findBlock(readme, HEADING.claude, 'claude mcp add').text.trim());
    const words = line.split(/\s+/);
    expect(words.slice(0, 3)).toEqual(['claude', 'mcp', 'add']);
    expect(words).not.toContain('npx');
    const [command, ...args] = words.slice(words.indexOf('--') + 1);
    expect(command).toBe('reponav');
    await expectStdioServer({ command, args });
  });

  it('Cursor: mcpServers entry with an env block; the server uses the cache folder it names', async () => {
    const config = JSON.parse(fill(findBlock(readme, HEADING.cursor, 'mcpServers').text));
    const entry = config.mcpServers.reponav;
    expect(entry.command).toBe('reponav');
    expect(entry.env.REPONAV_CACHE_DIR).toBe(snippetCache);
    await expectStdioServer(entry);
    expect(readdirSync(snippetCache).some((name) => name.startsWith('bookshop-'))).toBe(true);
  });

  it('VS Code: top-level servers key with type stdio', async () => {
    const config = JSON.parse(fill(findBlock(readme, HEADING.vscode, '"servers"').text));
    const entry = config.servers.reponav;
    expect(entry.type).toBe('stdio');
    await expectStdioServer(entry);
  });

  it('any stdio client: node and the built entry point', async () => {
    const entry = JSON.parse(fill(findBlock(readme, HEADING.stdio, '"command"').text));
    expect(entry.command).toBe('node');
    await expectStdioServer({ ...entry, command: process.execPath });
  });

  it('Streamable HTTP: the server started as shown, reached with the token in the Authorization header, refused without it', async () => {
    const port = await freePort();
    const lines = fill(findBlock(readme, HEADING.http, /^export REPONAV_MCP_TOKEN/m).text)
      .replaceAll('8765', String(port))
      .split('\n')
      .filter((line) => line.trim());
    expect(lines).toHaveLength(2);
    // The token line, run by the shell as pasted; the token it made is what the client sends.
    const token = spawnSync('bash', ['-c', `${lines[0]}\nprintf %s "$REPONAV_MCP_TOKEN"`], { env: clientEnv(), encoding: 'utf8' }).stdout;
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    const server = spawn('bash', ['-c', `exec ${lines[1]}`], { env: clientEnv({ REPONAV_MCP_TOKEN: token }), stdio: ['ignore', 'ignore', 'pipe'] });
    started.push(server);
    await new Promise<void>((resolve, reject) => {
      let stderr = '';
      server.stderr!.on('data', (chunk) => {
        stderr += String(chunk);
        if (stderr.includes('listening on')) resolve();
      });
      server.once('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
    });

    const client = JSON.parse(
      fill(findBlock(readme, HEADING.http, '"headers"').text)
        .replaceAll('HOST', '127.0.0.1')
        .replaceAll('8765', String(port))
        // The client resolves the token reference from its environment (Cursor's `${env:NAME}`).
        .replaceAll('${env:REPONAV_MCP_TOKEN}', token),
    ).mcpServers.reponav;
    const connection = await connectHttp(client.url, client.headers);
    try {
      const { tools } = await connection.client.listTools();
      expect(tools.map((t: { name: string }) => t.name)).toEqual(DEFAULT_TOOLS);
      expect((await call(connection.client, 'find_class', { name: 'Catalogue' })).text).toContain('inventory/catalogue.py');
    } finally {
      await connection.close();
    }
    await expect(connectHttp(client.url, {})).rejects.toThrow();
    await expect(connectHttp(client.url, { Authorization: 'Bearer wrong-token-wrong-token' })).rejects.toThrow();
  });
});
