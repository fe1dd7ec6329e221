/**
 * `reponav mcp --print-config CLIENT`: a ready snippet that starts this
 * install's MCP server from an MCP client, naming Node and the CLI script by
 * absolute path (a client's own PATH, or an nvm default of another Node
 * version, then cannot pick a Node the native modules were not built for).
 */
import { ReponavError } from '../errors.js';

/** The clients a snippet is printed for. */
export const MCP_CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex', 'windsurf', 'gemini'] as const;

export type McpClient = (typeof MCP_CLIENTS)[number];

/** What the snippet starts: absolute paths, and the environment to pass on. */
export interface ServerLaunch {
  node: string;
  script: string;
  /** Arguments after the script (`mcp --repo /abs/repo`). */
  args: string[];
  env: Record<string, string>;
}

/** The snippet, and where it goes (one line, for stderr). */
export interface ClientSnippet {
  text: string;
  where: string;
}

/** The client named by `name` (case-insensitive; `claude`, `code`, `gemini-cli` accepted), or BAD_INPUT naming the choices. */
export function mcpClientOf(name: string): McpClient {
  const key = name.trim().toLowerCase().replace(/[\s_]+/g, '-');
  const aliases: Record<string, McpClient> = { claude: 'claude-code', code: 'vscode', 'vs-code': 'vscode', 'gemini-cli': 'gemini', 'openai-codex': 'codex' };
  const client = aliases[key] ?? (MCP_CLIENTS as readonly string[]).find((c) => c === key);
  if (!client) throw new ReponavError('BAD_INPUT', `Unknown MCP client '${name.slice(0, 60)}'; --print-config takes one of ${MCP_CLIENTS.join(', ')}.`);
  return client as McpClient;
}

/** Where a Streamable HTTP server listens, and the environment variable its bearer token is read from (none: no token). */
export interface HttpLaunch {
  url: string;
  tokenEnv?: string;
}

/**
 * The snippet for `client` that connects to a running Streamable HTTP server,
 * in the client's own HTTP form, with the bearer token read from `tokenEnv`
 * by the client (its own variable syntax), never written into the snippet.
 * Claude Desktop has no HTTP entry in its config file: BAD_INPUT.
 */
export function clientHttpSnippet(client: McpClient, launch: HttpLaunch): ClientSnippet {
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}`;
  const bearer = (reference: string) => (launch.tokenEnv ? { headers: { Authorization: `Bearer ${reference}` } } : {});
  const tokenNote = launch.tokenEnv ? ` Set ${launch.tokenEnv} to the server's token where the client runs.` : '';
  switch (client) {
    case 'claude-code': {
      // Double quotes: the shell running `claude mcp add` expands the variable; the snippet holds its name only.
      const header = launch.tokenEnv ? ` --header "Authorization: Bearer $${launch.tokenEnv}"` : '';
      return { text: `claude mcp add --transport http${header} reponav ${shellWord(launch.url)}`, where: `Run this command (add --scope user to use it in every project).${tokenNote}` };
    }
    case 'claude-desktop':
      throw new ReponavError(
        'BAD_INPUT',
        'Claude Desktop takes remote servers under Settings > Connectors, not in its config file; print its stdio snippet (without --http), or add the URL there.',
      );
    case 'cursor':
      return { text: json({ mcpServers: { reponav: { url: launch.url, ...bearer(`\${env:${launch.tokenEnv}}`) } } }), where: `Merge into .cursor/mcp.json in the project (or ~/.cursor/mcp.json).${tokenNote}` };
    case 'vscode': {
      // VS Code asks for the token once (an input, stored as a secret) rather than reading a variable.
      const inputs = launch.tokenEnv ? { inputs: [{ type: 'promptString', id: 'reponav-token', description: `reponav MCP bearer token (${launch.tokenEnv})`, password: true }] } : {};
      return { text: json({ servers: { reponav: { type: 'http', url: launch.url, ...bearer('${input:reponav-token}') } }, ...inputs }), where: `Merge into .vscode/mcp.json in the workspace; VS Code asks for the token on first start.` };
    }
    case 'windsurf':
      return { text: json({ mcpServers: { reponav: { serverUrl: launch.url, ...bearer(`\${env:${launch.tokenEnv}}`) } } }), where: `Merge into ~/.codeium/windsurf/mcp_config.json.${tokenNote}` };
    case 'gemini':
      return { text: json({ mcpServers: { reponav: { httpUrl: launch.url, ...bearer(`\${${launch.tokenEnv}}`) } } }), where: `Merge into ~/.gemini/settings.json (or .gemini/settings.json in the project).${tokenNote}` };
    case 'codex': {
      const lines = ['[mcp_servers.reponav]', `url = ${tomlString(launch.url)}`];
      if (launch.tokenEnv) lines.push(`bearer_token_env_var = ${tomlString(launch.tokenEnv)}`);
      return { text: lines.join('\n'), where: `Append to ~/.codex/config.toml.${tokenNote}` };
    }
  }
}

/** A word as a POSIX shell reads it back unchanged. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A TOML basic string. */
function tomlString(text: string): string {
  return JSON.stringify(text);
}

/** The snippet for `client` that starts `launch`. */
export function clientSnippet(client: McpClient, launch: ServerLaunch): ClientSnippet {
  const args = [launch.script, ...launch.args];
  const env = Object.keys(launch.env).length > 0 ? { env: launch.env } : {};
  const stdio = { command: launch.node, args, ...env };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}`;
  switch (client) {
    case 'claude-code': {
      const envFlags = Object.entries(launch.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
      return {
        text: ['claude', 'mcp', 'add', 'reponav', ...envFlags, '--', launch.node, ...args].map(shellWord).join(' '),
        where: 'Run this command (add --scope user to use it in every project).',
      };
    }
    case 'claude-desktop':
      return { text: json({ mcpServers: { reponav: stdio } }), where: 'Merge into claude_desktop_config.json (Settings > Developer > Edit Config), then restart Claude Desktop.' };
    case 'cursor':
      return { text: json({ mcpServers: { reponav: stdio } }), where: 'Merge into .cursor/mcp.json in the project (or ~/.cursor/mcp.json for every project).' };
    case 'vscode':
      return { text: json({ servers: { reponav: { type: 'stdio', ...stdio } } }), where: 'Merge into .vscode/mcp.json in the workspace.' };
    case 'windsurf':
      return { text: json({ mcpServers: { reponav: stdio } }), where: 'Merge into ~/.codeium/windsurf/mcp_config.json.' };
    case 'gemini':
      return { text: json({ mcpServers: { reponav: stdio } }), where: 'Merge into ~/.gemini/settings.json (or .gemini/settings.json in the project).' };
    case 'codex': {
      const lines = ['[mcp_servers.reponav]', `command = ${tomlString(launch.node)}`, `args = [${args.map(tomlString).join(', ')}]`];
      if (Object.keys(launch.env).length > 0) lines.push(`env = { ${Object.entries(launch.env).map(([k, v]) => `${JSON.stringify(k)} = ${tomlString(v)}`).join(', ')} }`);
      return { text: lines.join('\n'), where: 'Append to ~/.codex/config.toml.' };
    }
  }
}
