/**
 * `reponav ui`: the local web view — search with the scaffold beside the
 * ranked files, symbol outlines, `ask` search trees and evaluation reports —
 * served from the installed package on 127.0.0.1.
 */
import type { Command } from 'commander';
import { ReponavError } from '../../errors.js';
import { isLoopbackHost } from '../../mcp-server/index.js';
import { RepositorySet } from '../../tools/index.js';
import { hasBuiltAssets, defaultAssetsDir } from '../../http-api/index.js';
import { DEFAULT_WEB_PORT, startWebServer, type RunningWebServer } from '../../http-api/index.js';
import { addPathRuleOptions, cliLogger } from '../cli-context.js';
import { addHiddenAlias } from '../option-aliases.js';
import { keepProcessAlive } from '../process-exit.js';
import { fileSize, port } from '../option-parsers.js';
import { readPackageVersion } from '../package-info.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';

interface UiCommandOptions {
  repo: string;
  include?: string[];
  exclude?: string[];
  port: number;
  host: string;
  indexPath?: string;
  maxFileSize?: number;
  quiet?: boolean;
  verbose?: boolean;
}

/** What {@link startUi} needs: the command's options and whether --host was typed. */
export interface StartUiOptions {
  repo: string;
  port: number;
  host: string;
  /** True when --host came from the command line: only then may a non-loopback address be bound. */
  explicitHost: boolean;
  indexPath?: string;
  maxFileBytes?: number;
  include?: string[];
  exclude?: string[];
  quiet?: boolean;
  verbose?: boolean;
}

/** A running `reponav ui`. */
export interface RunningUi {
  server: RunningWebServer;
  repositories: RepositorySet;
  /** Stops the server and closes the index. */
  close(): Promise<void>;
}

/**
 * Opens the repository, starts the web view and begins indexing in the
 * background. Warnings (non-loopback bind, missing front end) go to `io`'s stderr.
 */
export async function startUi(options: StartUiOptions, io: CliIo = PROCESS_IO): Promise<RunningUi> {
  const logger = cliLogger(options, io);
  if (!isLoopbackHost(options.host)) {
    if (!options.explicitHost) throw new ReponavError('BAD_INPUT', `Refusing to bind ${options.host}; pass --host explicitly to serve beyond this machine.`);
    io.stderr.write(
      `warning: serving on ${options.host}: anyone who can reach this address can read the repository and any JSON file this user can read. There is no login.\n`,
    );
  }
  const assetsDir = defaultAssetsDir();
  if (!hasBuiltAssets(assetsDir)) {
    io.stderr.write(`warning: the web front end is not built (${assetsDir} has no index.html); run \`npm run build:web\`. The page will say so.\n`);
  }
  const repositories = await RepositorySet.open([{ path: options.repo, indexPath: options.indexPath }], {
    logger,
    maxFileBytes: options.maxFileBytes,
    include: options.include,
    exclude: options.exclude,
  });
  let server: RunningWebServer;
  try {
    server = await startWebServer({
      repositories,
      port: options.port,
      host: options.host,
      allowRemote: options.explicitHost,
      assetsDir,
      version: readPackageVersion(),
      logger,
    });
  } catch (error) {
    await repositories.close().catch(() => undefined);
    throw error;
  }
  // Index in the background so the first search does not wait for a whole build.
  repositories.all()[0]!.refresh().then(
    (report) => {
      if (!options.quiet) io.stderr.write(`index ready: ${report.listed} file${report.listed === 1 ? '' : 's'} (${report.parsed} parsed) in ${Math.round(report.durationMs)} ms\n`);
    },
    (error: unknown) => io.stderr.write(`warning: indexing failed: ${error instanceof Error ? error.message : String(error)} (the page will show it)\n`),
  );
  return {
    server,
    repositories,
    close: async () => {
      await server.close().catch(() => undefined);
      await repositories.close().catch(() => undefined);
    },
  };
}

/** Registers `reponav ui [--repo PATH] [--port N] [--host HOST]`. */
export function registerUiCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  const command = program
    .command('ui')
    .exitOverride()
    .description('open the local web view: search and scaffold, symbol outlines, ask search trees, evaluation reports')
    .option('--repo <path>', 'repository folder', '.')
    .option('--port <n>', 'port to listen on (0 = any free port)', port, DEFAULT_WEB_PORT)
    .option('--host <host>', 'bind address; anything but loopback exposes the repository to the network and must be given explicitly', '127.0.0.1')
    .option('--index-path <file>', 'SQLite index location (default: the user cache)')
    .option('--max-file-size <size>', 'skip files larger than this (e.g. 512k, 2m)', fileSize)
    .option('-q, --quiet', 'log only errors on stderr')
    .option('--verbose', 'log debug messages on stderr');
  addPathRuleOptions(command);
  addHiddenAlias(command, '--max-file-bytes <size>', '--max-file-size <size>', fileSize);
  return command.action(async (options: UiCommandOptions) => {
      // Only a --host typed on the command line may open the server to the network.
      const ui = await startUi({ ...options, maxFileBytes: options.maxFileSize, explicitHost: command.getOptionValueSource('host') === 'cli' }, io);
      const handle = ui.repositories.all()[0]!;
      io.stdout.write(`reponav ui: ${ui.server.url} (${handle.name} = ${handle.root}); press Ctrl+C to stop\n`);
      let stopping = false;
      const shutdown = async (code: number) => {
        if (stopping) return;
        stopping = true;
        await ui.close();
        process.exit(code);
      };
      process.once('SIGINT', () => void shutdown(130));
      process.once('SIGTERM', () => void shutdown(143));
      keepProcessAlive();
    });
}
