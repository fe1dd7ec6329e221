/**
 * Test support for the localization agent: a small Python repository created
 * in a temporary folder (git init + two commits), a chat model pointed at the
 * fake OpenAI server through the real client code, and scripted replies.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createChatModel, type ChatModel } from '../../src/llm/index.js';
import type { QueuedReply } from '../helpers/fake-openai-server.js';

/** A temporary git repository. */
export interface FixtureRepo {
  /** Holds `repo/`, indexes, transcripts and traces. */
  dir: string;
  /** The working tree (at `head`). */
  root: string;
  /** The first commit (no `shop/coupons.py`). */
  first: string;
  /** The second commit, checked out. */
  head: string;
  indexPath(name: string): string;
  cleanup(): void;
}

const FILES_V1: Record<string, string> = {
  'shop/__init__.py': 'from shop.cart import Cart\n',
  'shop/cart.py': [
    '"""Shopping cart."""',
    'from shop.pricing import compute_tax',
    '',
    '',
    'class Cart:',
    '    """A cart of items with an optional discount code."""',
    '',
    '    def __init__(self):',
    '        self.items = []',
    '        self.discount = 0.0',
    '',
    '    def add_item(self, name, price, quantity=1):',
    '        """Adds an item line."""',
    '        self.items.append((name, price, quantity))',
    '',
    '    def apply_discount(self, code):',
    '        """Applies a discount code; applying the same code twice doubles it (bug)."""',
    '        if code == "SAVE10":',
    '            self.discount += 0.10',
    '',
    '    def total(self, region="EU"):',
    '        subtotal = sum(price * quantity for _, price, quantity in self.items)',
    '        return compute_tax(subtotal * (1 - self.discount), region)',
    '',
  ].join('\n'),
  'shop/pricing.py': [
    'TAX_RATES = {"EU": 0.2, "US": 0.07}',
    '',
    '',
    'def compute_tax(amount, region):',
    '    """Adds the regional tax to an amount."""',
    '    return amount * (1 + TAX_RATES[region])',
    '',
  ].join('\n'),
  'shop/cli.py': ['import sys', '', '', 'def main(argv=None):', '    """Prints a demo total."""', '    print(sys.argv)', ''].join('\n'),
  'tests/test_cart.py': ['from shop.cart import Cart', '', '', 'def test_total():', '    assert Cart().total() == 0', ''].join('\n'),
  'README.md': '# shop\nA tiny shop used by the agent tests.\n',
};

function git(args: string[], cwd: string): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' }).trim();
}

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** Creates the fixture repository with two commits. */
export function createFixtureRepo(): FixtureRepo {
  const dir = mkdtempSync(join(tmpdir(), 'reponav-agent-test-'));
  const root = join(dir, 'repo');
  mkdirSync(root);
  git(['init', '-q'], root);
  writeFiles(root, FILES_V1);
  git(['add', '-A'], root);
  git(['commit', '-q', '-m', 'first'], root);
  const first = git(['rev-parse', 'HEAD'], root);
  writeFiles(root, { 'shop/coupons.py': 'def validate(code):\n    return code.isupper()\n' });
  git(['add', '-A'], root);
  git(['commit', '-q', '-m', 'coupons'], root);
  const head = git(['rev-parse', 'HEAD'], root);
  return {
    dir,
    root,
    first,
    head,
    indexPath: (name) => join(dir, 'index', `${name}.db`),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A model on the fake server via the real OpenAI-compatible client; fast retries. */
export function fakeModel(openaiBaseUrl: string): ChatModel {
  return createChatModel({ model: 'openai-compatible:fake-model', baseUrl: openaiBaseUrl, retryBaseDelayMs: 1 }, { env: {} });
}

/** A scripted assistant turn holding a tool call. */
export function toolTurn(tool: string, args: Record<string, unknown>, usage?: QueuedReply['usage']): QueuedReply {
  return { content: `I will call ${tool}.\n\`\`\`tool\n${JSON.stringify({ tool, args })}\n\`\`\``, usage };
}

/** A scripted assistant turn holding a shell command. */
export function bashTurn(command: string, usage?: QueuedReply['usage']): QueuedReply {
  return { content: `Let me look.\n\`\`\`bash\n${command}\n\`\`\``, usage };
}

/** A scripted assistant turn holding the final answer. */
export function answerTurn(files: string[], functions: string[]): QueuedReply {
  return { content: `Found it.\n\`\`\`answer\n${JSON.stringify({ files, functions })}\n\`\`\`` };
}

/** The messages of the i-th chat request the fake server received. */
export function requestMessages(requests: Array<{ body: any }>, i: number): Array<{ role: string; content: string }> {
  return requests[i]!.body.messages as Array<{ role: string; content: string }>;
}

/**
 * A LocBench set over `repo` in `repo.dir`: `repos/acme+shop` linked to its
 * working tree (the harness's `owner+name` layout) and `instances` written as
 * JSONL to `name`. Returns both paths for `eval locbench --repos … --split …`.
 */
export function writeLocbenchSet(repo: FixtureRepo, instances: readonly object[], name = 'instances.jsonl'): { reposDir: string; instances: string } {
  const reposDir = join(repo.dir, 'repos');
  mkdirSync(reposDir, { recursive: true });
  symlinkSync(repo.root, join(reposDir, 'acme+shop'));
  const path = join(repo.dir, name);
  writeFileSync(path, instances.map((instance) => JSON.stringify(instance)).join('\n') + '\n');
  return { reposDir, instances: path };
}
