/**
 * `reponav mcp --print-config CLIENT` for every client format: the snippet
 * names this Node and the built CLI by absolute path, parses in its format,
 * and the server it describes starts and lists its tools. And a server that
 * cannot start answers the client's first request with the reason. The stdio
 * snippets (which name the running script) and the servers run the built CLI;
 * the HTTP snippets, usage errors and help run the program in this process.
 */
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_CLIENTS } from '../../src/cli/mcp-client-config.js';
import { TOOL_NAMES } from '../../src/tools/tool-types.js';
import { builtCliPath } from './built-cli.js';
import { connectHttp, connectStdio, getDefaultEnvironment, DEFAULT_MCP_TOOLS } from './mcp-client.js';
import { startHttpServer, type RunningHttpServer } from '../../src/mcp-server/http-server.js';
import { openMcpService, type McpService } from '../../src/mcp-server/mcp-service.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';
import { cleanupTempDirs, tempDir } from '../cli/harness.js';
import { runCliInProcess as cli } from '../cli/in-process-cli.js';

afterAll(cleanupTempDirs);

interface Launch {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The stdio launch a printed snippet describes, read the way its client reads it. */
function launchOf(client: string, text: string): Launch {
  switch (client) {
    case 'claude-code': {
      // The shell reads the command; a stand-in `claude` prints the words it was given.
      const words = spawnSync('sh', ['-c', `claude() { for a; do printf '%s\\0' "$a"; done; }; ${text}`], { encoding: 'utf8' }).stdout.split('\0').slice(0, -1);
      expect(words.slice(0, 3)).toEqual(['mcp', 'add', 'reponav']);
      const rest = words.slice(3);
      const env: Record<string, string> = {};
      while (rest[0] === '-e') {
        const [k, ...v] = rest[1].split('=');
        env[k] = v.join('=');
        rest.splice(0, 2);
      }
      expect(rest[0]).toBe('--');
      return { command: rest[1], args: rest.slice(2), env };
    }
    case 'codex': {
      expect(text.split('\n')[0]).toBe('[mcp_servers.reponav]');
      const value = (key: string) => JSON.parse(/^(\w+) = (.*)$/m.exec(text.split('\n').find((l) => l.startsWith(`${key} =`))!)![2]) as unknown;
      const envLine = text.split('\n').find((l) => l.startsWith('env = '));
      const env = envLine ? (JSON.parse(envLine.slice(6).replace(/" = "/g, '": "')) as Record<string, string>) : undefined;
      return { command: value('command') as string, args: value('args') as string[], env };
    }
    case 'vscode': {
      const server = (JSON.parse(text) as { servers: { reponav: Launch & { type: string } } }).servers.reponav;
      expect(server.type).toBe('stdio');
      return server;
    }
    default:
      return (JSON.parse(text) as { mcpServers: { reponav: Launch } }).mcpServers.reponav;
  }
}

describe('reponav mcp --print-config', () => {
  let copy: FixtureCopy;
  const cache = () => join(copy.dir, 'cache');
  beforeAll(() => {
    copy = copyFixture();
  });
  afterAll(() => copy?.cleanup());

  for (const client of MCP_CLIENTS) {
    it(`prints a ${client} snippet with this install's absolute paths, and the server it describes serves the tools`, async () => {
      const printed = spawnSync(process.execPath, [builtCliPath(), 'mcp', '--print-config', client, '--repo', copy.root], {
        encoding: 'utf8',
        env: { ...process.env, REPONAV_CACHE_DIR: cache() },
      });
      expect(printed.status, printed.stderr).toBe(0);
      expect(printed.stderr.trim().split('\n')).toHaveLength(1);
      const launch = launchOf(client, printed.stdout.trimEnd());
      expect(launch.command).toBe(process.execPath);
      expect(launch.args).toEqual([realpathSync(builtCliPath()), 'mcp', '--repo', copy.root]);
      expect(launch.env).toEqual({ REPONAV_CACHE_DIR: cache() });
      const connection = await connectStdio('modern', { command: launch.command, args: launch.args, env: { ...getDefaultEnvironment(), ...launch.env } });
      try {
        expect((await connection.client.listTools()).tools.map((t: { name: string }) => t.name)).toEqual([...DEFAULT_MCP_TOOLS]);
      } finally {
        await connection.close();
      }
    });
  }

  it('refuses an unknown client as a usage error (exit 2) in one sentence naming the choices', async () => {
    const r = await cli(['mcp', '--print-config', 'emacs'], { cacheDir: cache() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`^error: Unknown MCP client 'emacs'; --print-config takes one of ${MCP_CLIENTS.join(', ')}\\.`));
  });

  it('carries --structured into the stdio snippet', async () => {
    const r = await cli(['mcp', '--print-config', 'cursor', '--structured', '--repo', copy.root], { cacheDir: cache() });
    expect(r.code, r.stderr).toBe(0);
    expect(launchOf('cursor', r.stdout).args.slice(-1)).toEqual(['--structured']);
  });
});

/**
 * The URL and Authorization header a printed HTTP snippet gives, resolved the
 * way its client documents: Cursor and Windsurf `${env:NAME}`, Gemini CLI
 * `${NAME}`, VS Code an `${input:id}` it prompts for, Codex
 * `bearer_token_env_var`, Claude Code the shell expanding `$NAME` in
 * `claude mcp add --transport http --header`. Each client's own URL key is
 * required (Windsurf `serverUrl`, Gemini CLI `httpUrl`, the others `url`).
 */
function httpLaunchOf(client: string, text: string, env: Record<string, string>): { url: string; authorization?: string } {
  const fromEnv = (value: string | undefined, pattern: RegExp) => value?.replace(pattern, (_, name: string) => env[name] ?? '');
  switch (client) {
    case 'claude-code': {
      const words = spawnSync('sh', ['-c', `claude() { for a; do printf '%s\\0' "$a"; done; }; ${text}`], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } }).stdout.split('\0').slice(0, -1);
      expect(words.slice(0, 4)).toEqual(['mcp', 'add', '--transport', 'http']);
      const header = words.indexOf('--header');
      const rest = words.filter((_, i) => i > 3 && (header < 0 || (i !== header && i !== header + 1)));
      expect(rest[0]).toBe('reponav');
      return { url: rest[1], authorization: header < 0 ? undefined : words[header + 1].replace(/^Authorization: /, '') };
    }
    case 'codex': {
      const lines = text.split('\n');
      expect(lines[0]).toBe('[mcp_servers.reponav]');
      expect(text).not.toMatch(/^bearer_token\s*=/m);
      const value = (key: string) => { const line = lines.find((l) => l.startsWith(`${key} = `)); return line ? (JSON.parse(line.slice(key.length + 3)) as string) : undefined; };
      const variable = value('bearer_token_env_var');
      return { url: value('url')!, authorization: variable ? `Bearer ${env[variable]}` : undefined };
    }
    case 'vscode': {
      const config = JSON.parse(text) as { servers: { reponav: { type: string; url: string; headers?: { Authorization: string } } }; inputs?: Array<{ id: string; password: boolean }> };
      const server = config.servers.reponav;
      expect(server.type).toBe('http');
      const prompted = Object.fromEntries((config.inputs ?? []).map((input) => [input.id, input.password ? env.REPONAV_MCP_TOKEN : '']));
      return { url: server.url, authorization: server.headers?.Authorization.replace(/\$\{input:([\w-]+)\}/g, (_, id: string) => prompted[id] ?? '') };
    }
    default: {
      const key = { windsurf: 'serverUrl', gemini: 'httpUrl' }[client] ?? 'url';
      const server = (JSON.parse(text) as { mcpServers: { reponav: Record<string, unknown> & { headers?: { Authorization: string } } } }).mcpServers.reponav;
      expect(Object.keys(server).filter((k) => k !== 'headers')).toEqual([key]);
      const reference = client === 'gemini' ? /\$\{(\w+)\}/g : /\$\{env:(\w+)\}/g;
      return { url: server[key] as string, authorization: fromEnv(server.headers?.Authorization, reference) };
    }
  }
}

describe('reponav mcp --print-config CLIENT --http PORT', () => {
  const token = 'print-config-test-token-0123456789';
  let copy: FixtureCopy;
  let service: McpService;
  let http: RunningHttpServer;
  beforeAll(async () => {
    copy = copyFixture();
    service = await openMcpService({ repositories: [{ path: copy.root, indexPath: copy.indexPath }] });
    http = await startHttpServer({ port: 0, host: '127.0.0.1', token, createSession: () => service.createSession() });
  });
  afterAll(async () => {
    await http?.close();
    await service?.close();
    copy?.cleanup();
  });

  for (const client of MCP_CLIENTS.filter((c) => c !== 'claude-desktop')) {
    it(`prints ${client}'s own HTTP form, the token read from REPONAV_MCP_TOKEN and never written, and it connects`, async () => {
      const port = new URL(http.url).port;
      const env = { REPONAV_MCP_TOKEN: token };
      const printed = await cli(['mcp', '--print-config', client, '--http', port], { cacheDir: join(copy.dir, 'cache'), env });
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).not.toContain(token);
      const launch = httpLaunchOf(client, printed.stdout.trimEnd(), env);
      expect(launch.url).toBe(http.url);
      expect(launch.authorization).toBe(`Bearer ${token}`);
      const connection = await connectHttp(launch.url, { Authorization: launch.authorization! });
      try {
        expect((await connection.client.listTools()).tools.map((t: { name: string }) => t.name)).toEqual([...DEFAULT_MCP_TOOLS]);
      } finally {
        await connection.close();
      }
    });
  }

  it('prints no header for a loopback server without a token, and refuses Claude Desktop and port 0 as usage errors', async () => {
    const run = (...args: string[]) => cli(['mcp', '--print-config', ...args], { cacheDir: join(copy.dir, 'cache'), env: { REPONAV_MCP_TOKEN: '' } });
    const plain = await run('cursor', '--http', '8765');
    expect(JSON.parse(plain.stdout)).toEqual({ mcpServers: { reponav: { url: 'http://127.0.0.1:8765/mcp' } } });
    const desktop = await run('claude-desktop', '--http', '8765');
    expect(desktop.code).toBe(2);
    expect(desktop.stderr).toMatch(/^error: Claude Desktop takes remote servers under Settings > Connectors/);
    expect((await run('cursor', '--http', '0')).code).toBe(2);
  });
});

describe('reponav mcp --help', () => {
  it('names the default tool set the server really offers', async () => {
    const help = (await cli(['mcp', '--help'], { cacheDir: tempDir(), env: { COLUMNS: '400' } })).stdout.replace(/\s+/g, ' ');
    const left = TOOL_NAMES.filter((name) => !DEFAULT_MCP_TOOLS.includes(name));
    expect(help).toContain(`else every tool but ${left.join(', ')};`);
  });
});

describe('a stdio server that cannot start', () => {
  const missing = join(realpathSync('/tmp'), 'reponav-no-such-repo', 'x');
  const args = [builtCliPath(), 'mcp', '--repo', missing];

  it('answers a 2025 client\'s initialize with the reason, which the client shows, instead of only closing the pipe', async () => {
    const connecting = connectStdio('legacy', { command: process.execPath, args, env: getDefaultEnvironment() });
    await expect(connecting).rejects.toThrow(/reponav could not start: .*reponav-no-such-repo/);
  });

  it('answers server/discover (2026-07-28) with the same error, then exits with the CLI\'s one sentence and code', () => {
    const discover = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'server/discover', params: {} });
    const r = spawnSync(process.execPath, args, { input: `${discover}\n`, encoding: 'utf8', env: getDefaultEnvironment() });
    const reply = JSON.parse(r.stdout.trim()) as { id: number; error: { code: number; message: string } };
    expect(reply.id).toBe(7);
    expect(reply.error.code).toBe(-32000);
    expect(reply.error.message).toMatch(/^reponav could not start: .*reponav-no-such-repo/);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: .*reponav-no-such-repo.*\n$/);
  });
});
