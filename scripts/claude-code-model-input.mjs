#!/usr/bin/env node
// What Claude Code hands its model from a reponav tool call, recorded.
//
// Runs the real Claude Code CLI (`claude -p`) with reponav as its MCP server
// (this checkout's dist/, stdio, on a copy of sample/bookshop) and its Messages
// API pointed at a scripted endpoint on 127.0.0.1: the first model turn calls
// mcp__reponav__search, the next one ends the run. The endpoint records every
// request; the script prints the tool_result Claude Code sent back (what the
// model would read), its size in characters and o200k tokens, and which
// scaffold blocks it holds, once with the default server and once with
// `reponav mcp --structured`. No network is used: every request goes to the
// local endpoint (nonessential traffic disabled).
//
// Usage:
//   npm run build
//   npm install --prefix /tmp/cc @anthropic-ai/claude-code   # outside this repository
//   node scripts/claude-code-model-input.mjs --claude /tmp/cc/node_modules/.bin/claude [--query TEXT] [--out FILE]
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const { values } = parseArgs({
  options: {
    claude: { type: 'string' },
    query: { type: 'string', default: 'retry when reserving stock fails' },
    out: { type: 'string' },
    model: { type: 'string', default: 'claude-sonnet-4-5' },
  },
});
if (!values.claude) {
  process.stderr.write('usage: node scripts/claude-code-model-input.mjs --claude PATH [--query TEXT] [--out FILE]\n');
  process.exit(2);
}
const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
const cli = join(repoRoot, 'dist', 'cli', 'main.js');
const TOOL = 'mcp__reponav__search';

/** One SSE event of the Messages streaming format. */
const sse = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** A Messages reply (streamed when asked) with one content block: text, or a tool_use. */
function reply(res, body, block) {
  const message = { id: `msg_${Date.now()}`, type: 'message', role: 'assistant', model: body.model, stop_sequence: null };
  const usage = { input_tokens: 100, output_tokens: 10 };
  const stop = block.type === 'tool_use' ? 'tool_use' : 'end_turn';
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...message, content: [block], stop_reason: stop, usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(sse('message_start', { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 100, output_tokens: 0 } } }));
  if (block.type === 'tool_use') {
    res.write(sse('content_block_start', { index: 0, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
    res.write(sse('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } }));
  } else {
    res.write(sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
    res.write(sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: block.text } }));
  }
  res.write(sse('content_block_stop', { index: 0 }));
  res.write(sse('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } }));
  res.write(sse('message_stop', {}));
  res.end();
}

/** The scripted endpoint: call the search tool once, then end; record every request. */
function startEndpoint(requests) {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : {};
      requests.push({ path: req.url, body });
      if (req.url?.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
        return;
      }
      if (!req.url?.startsWith('/v1/messages')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      const offered = (body.tools ?? []).some((t) => t.name === TOOL);
      const answered = JSON.stringify(body.messages ?? []).includes('"tool_result"');
      if (offered && !answered) reply(res, body, { type: 'tool_use', id: 'toolu_reponav_1', name: TOOL, input: { query: values.query } });
      else reply(res, body, { type: 'text', text: 'Done.' });
    });
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

/** The tool_result block Claude Code sent for our call, as the model would read it (text joined). */
function toolResultOf(requests) {
  for (const { body } of requests) {
    for (const message of body.messages ?? []) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content) {
        if (block.type !== 'tool_result' || block.tool_use_id !== 'toolu_reponav_1') continue;
        const content = block.content;
        // Claude Code appends its own <system-reminder> text block (tokens left); the rest is the server's answer.
        const ours = (c) => c.type === 'text' && !c.text.startsWith('<system-reminder>');
        const text = typeof content === 'string' ? content : (content ?? []).filter(ours).map((c) => c.text).join('\n');
        return { raw: content, text };
      }
    }
  }
  return null;
}

async function run(structured, work, claudeVersion) {
  const requests = [];
  const endpoint = await startEndpoint(requests);
  const home = mkdtempSync(join(work, 'home-'));
  const mcpConfig = join(work, `mcp-${structured ? 'structured' : 'default'}.json`);
  const args = [cli, 'mcp', '--repo', join(work, 'bookshop'), '--quiet', ...(structured ? ['--structured'] : [])];
  writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { reponav: { command: process.execPath, args, env: { REPONAV_CACHE_DIR: join(work, 'cache') } } } }));
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${endpoint.address().port}`,
    ANTHROPIC_API_KEY: 'sk-ant-test-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    MCP_TIMEOUT: '60000',
    // MCP tools are listed to the model directly, not behind Claude Code's ToolSearch (which it uses with a non-Anthropic base URL).
    ENABLE_TOOL_SEARCH: 'false',
  };
  const child = spawn(
    values.claude,
    ['-p', `Use the reponav search tool to find: ${values.query}`, '--mcp-config', mcpConfig, '--strict-mcp-config', '--allowedTools', TOOL, '--model', values.model, '--output-format', 'json'],
    { cwd: join(work, 'bookshop'), env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  const code = await new Promise((done) => child.on('close', done));
  clearTimeout(timer);
  endpoint.close();
  const result = toolResultOf(requests);
  const text = result?.text ?? '';
  return {
    claudeCode: claudeVersion,
    server: structured ? 'reponav mcp --structured' : 'reponav mcp',
    exitCode: code,
    requests: requests.length,
    toolsOffered: [...new Set(requests.flatMap((r) => (r.body.tools ?? []).map((t) => t.name)))].filter((n) => n.includes('reponav') || n.toLowerCase().includes('search')),
    toolResultFound: result !== null,
    toolResultShape: result === null ? null : typeof result.raw === 'string' ? 'string' : `array of ${result.raw?.length ?? 0} blocks`,
    blocks: Array.isArray(result?.raw) ? result.raw.map((b) => ({ type: b.type, characters: (b.text ?? '').length, start: (b.text ?? '').slice(0, 80) })) : undefined,
    isJson: /^\s*\{/.test(text),
    characters: text.length,
    o200kTokens: countTokens(text),
    holds: Object.fromEntries(['[ANCHORS]', '[GLIMPSE]', '[CANDIDATE_TARGETS]'].map((b) => [b, text.includes(b)])),
    firstChars: text.slice(0, 300),
    ...(result === null ? { stdout: stdout.slice(-2000), stderr: stderr.slice(-2000) } : {}),
  };
}

const work = mkdtempSync(join(tmpdir(), 'reponav-claude-code-'));
try {
  cpSync(join(repoRoot, 'sample', 'bookshop'), join(work, 'bookshop'), { recursive: true });
  // Index first, so the tool call answers from the whole index within the client's timeout.
  execFileSync(process.execPath, [cli, 'index', '--repo', join(work, 'bookshop'), '--quiet'], { env: { ...process.env, REPONAV_CACHE_DIR: join(work, 'cache') } });
  const claudeVersion = execFileSync(values.claude, ['--version'], { env: { PATH: process.env.PATH, HOME: work } }).toString().trim();
  const report = [await run(false, work, claudeVersion), await run(true, work, claudeVersion)];
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (values.out) writeFileSync(values.out, json);
  process.stdout.write(json);
} finally {
  rmSync(work, { recursive: true, force: true });
}
