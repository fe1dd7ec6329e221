#!/usr/bin/env node
// Measures what `tools/list` costs an agent's context: the JSON a client
// receives for each tool (name, title, description, input/output schemas,
// annotations), counted in o200k_base tokens (gpt-tokenizer; Claude's tokenizer
// is not public, so this is a proxy) and in reponav's own estimate
// (characters / 4). Usage: npm run build && node scripts/tool-list-tokens.mjs [--tools a,b] [--structured] [--total]
// (--total prints only the tools/list total). The tables in docs/mcp-tools.md
// and docs/benchmarks.md are this script's output, each below a
// `<!-- tools:tokens ARGS -->` line naming its arguments;
// test/package/tool-list-tokens.test.ts runs it again (in process, and once as a
// command) and compares.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { openMcpService } from '../dist/reponav-mcp.js';

/**
 * What the script prints for `args` (its command-line arguments), as one string:
 * the table, or with `--total` the tools/list total alone. Exported so the docs
 * test can compare many argument lists in one process.
 */
export async function toolListTokens(args) {
  const toolsArg = args.indexOf('--tools');
  const include = toolsArg === -1 ? undefined : args[toolsArg + 1].split(',');
  const structured = args.includes('--structured');
  const totalOnly = args.includes('--total');
  const work = mkdtempSync(join(tmpdir(), 'reponav-tokens-'));
  try {
    const root = join(work, 'bookshop');
    cpSync(new URL('../sample/bookshop', import.meta.url), root, { recursive: true });
    const service = await openMcpService({ repositories: [{ path: root, indexPath: join(work, 'index.db') }], tools: include ? { include } : undefined, structured });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = service.createSession();
    await server.connect(serverSide);
    const client = new Client({ name: 'token-count', version: '1' });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    const rows = tools.map((tool) => {
      const json = JSON.stringify(tool);
      return { name: tool.name, tokens: countTokens(json), estimate: Math.ceil(json.length / 4), description: countTokens(tool.description ?? '') };
    });
    const total = countTokens(JSON.stringify({ tools }));
    const instructions = countTokens(client.getInstructions() ?? '');
    let out;
    if (totalOnly) out = `${total}\n`;
    else {
      out = '| tool | tokens (o200k) | of which description | estimate (chars/4) |\n|---|---:|---:|---:|\n';
      for (const r of rows) out += `| ${r.name} | ${r.tokens} | ${r.description} | ${r.estimate} |\n`;
      out += `| **tools/list result, total** | **${total}** | | ${Math.ceil(JSON.stringify({ tools }).length / 4)} |\n`;
      out += `| server instructions (sent once at initialize) | ${instructions} | | |\n`;
    }
    await client.close();
    await server.close();
    await service.close();
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.stdout.write(await toolListTokens(process.argv.slice(2)));
