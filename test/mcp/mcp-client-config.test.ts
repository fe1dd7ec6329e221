/**
 * `reponav mcp --print-config CLIENT` for every client format: the snippet
 * names this Node and the built CLI by absolute path, parses in its format,
 * and the server it describes starts and lists its tools. And a server that
 * cannot start answers the client's first request with the reason.
 */
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_CLIENTS } from '../../src/cli/mcp-client-config.js';
import { builtCliPath } from './built-cli.js';
import { connectStdio, getDefaultEnvironment, DEFAULT_MCP_TOOLS } from './mcp-client.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';

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

  it('refuses an unknown client in one sentence naming the choices', () => {
    const r = spawnSync(process.execPath, [builtCliPath(), 'mcp', '--print-config', 'emacs'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`error: Unknown MCP client 'emacs'; --print-config takes one of ${MCP_CLIENTS.join(', ')}.\n`);
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
