/**
 * `reponav ui` as the CLI starts it: the repository opened, the server on
 * loopback answering, non-loopback binds refused unless typed explicitly.
 */
import { Command } from 'commander';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerUiCommand, startUi } from '../../src/cli/commands/ui-command.js';
import { PACKAGE_ROOT } from './web-harness.js';

let dir: string;
let repo: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reponav-ui-cli-'));
  repo = join(dir, 'tools-repo');
  cpSync(join(PACKAGE_ROOT, 'test', 'fixtures', 'tools-repo'), repo, { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reponav ui', () => {
  it('serves the repository on 127.0.0.1', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const ui = await startUi({ repo, port: 0, host: '127.0.0.1', explicitHost: false, indexPath: join(dir, 'index.db'), quiet: true });
    try {
      expect(ui.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const info = (await (await fetch(new URL('api/info', ui.server.url))).json()) as { repositories: Array<{ name: string }> };
      expect(info.repositories[0]!.name).toBe('tools-repo');
      const search = await fetch(new URL('api/search?q=apply%20tax', ui.server.url));
      expect(search.status).toBe(200);
    } finally {
      await ui.close();
      vi.restoreAllMocks();
    }
  });

  it('refuses a non-loopback host that was not typed explicitly', async () => {
    await expect(startUi({ repo, port: 0, host: '0.0.0.0', explicitHost: false })).rejects.toThrow(/Refusing to bind 0\.0\.0\.0/);
  });

  it('registers its options and rejects a bad port as a usage error', async () => {
    const program = new Command('reponav').exitOverride();
    const ui = registerUiCommand(program);
    expect(ui.name()).toBe('ui');
    expect(ui.options.map((o) => o.long)).toEqual(expect.arrayContaining(['--repo', '--port', '--host']));
    ui.configureOutput({ writeErr: () => undefined });
    await expect(program.parseAsync(['node', 'reponav', 'ui', '--port', 'x'])).rejects.toMatchObject({ code: 'commander.invalidArgument', message: expect.stringMatching(/'x' is invalid\. Expected a port number from 0 to 65535/) });
  });
});
