/**
 * A tiny Python repository written into a fresh temp folder, with its index in
 * the same folder (and REPONAV_CACHE_DIR pointed there), so ask tests never
 * touch the checked-in fixtures or the user's cache.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { RepositorySet } from '../../../src/tools/repository-set.js';

/** The fixture's files. Line numbers matter to the tests: see the comments. */
export const FIXTURE_FILES: Record<string, string> = {
  'shop/__init__.py': '"""A toy shop."""\n',
  // parse_args: lines 4-9; main: lines 12-17
  'shop/cli.py': [
    'import argparse',
    'from shop.cart import Cart',
    '',
    'def parse_args(argv=None):',
    '    """Parse command-line flags."""',
    '    parser = argparse.ArgumentParser(prog="shop")',
    '    parser.add_argument("--verbose", action="store_true")',
    '    parser.add_argument("--code", default=None)',
    '    return parser.parse_args(argv)',
    '',
    '',
    'def main(argv=None):',
    '    """Entry point: build a cart and print its total."""',
    '    args = parse_args(argv)',
    '    cart = Cart(code=args.code)',
    '    cart.add("book", 12.5)',
    '    print(cart.total())',
    '',
  ].join('\n'),
  // Cart: lines 4-19; Cart.total: lines 16-19
  'shop/cart.py': [
    'from shop.pricing import apply_discount, with_tax',
    '',
    '',
    'class Cart:',
    '    """A shopping cart: items, a discount code, a total with tax."""',
    '',
    '    def __init__(self, code=None):',
    '        self.items = []',
    '        self.code = code',
    '',
    '    def add(self, name, price):',
    '        """Add one item."""',
    '        self.items.append((name, price))',
    '        return self',
    '',
    '    def total(self):',
    '        """Sum of prices, discounted, with tax."""',
    '        amount = sum(price for _, price in self.items)',
    '        return with_tax(apply_discount(amount, self.code))',
    '',
  ].join('\n'),
  // TAX_RATE: line 3; apply_discount: lines 6-10; with_tax: lines 13-15
  'shop/pricing.py': [
    '"""Prices: discounts and tax."""',
    '',
    'TAX_RATE = 0.2',
    '',
    '',
    'def apply_discount(amount, code=None):',
    '    """Ten percent off with the SAVE10 code."""',
    '    if code == "SAVE10":',
    '        return amount * 0.9',
    '    return amount',
    '',
    '',
    'def with_tax(amount):',
    '    """Add value-added tax at TAX_RATE."""',
    '    return round(amount * (1 + TAX_RATE), 2)',
    '',
  ].join('\n'),
};

/** A fixture repository on disk with an open RepositorySet. */
export interface FixtureRepo {
  dir: string;
  root: string;
  repositories: RepositorySet;
  close(): Promise<void>;
}

/** Writes the fixture files under `root`. */
export function writeFixtureFiles(root: string): void {
  for (const [path, text] of Object.entries(FIXTURE_FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** Creates the fixture in a temp folder and opens (and indexes) it. */
export async function openFixtureRepo(): Promise<FixtureRepo> {
  const dir = mkdtempSync(join(tmpdir(), 'reponav-ask-'));
  process.env.REPONAV_CACHE_DIR = join(dir, 'cache');
  const root = join(dir, 'shop-repo');
  writeFixtureFiles(root);
  const repositories = await RepositorySet.open([{ path: root, name: 'shop-repo', indexPath: join(dir, 'index', 'shop.db') }]);
  await repositories.select().refresh();
  return {
    dir,
    root,
    repositories,
    async close() {
      await repositories.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs git with a fixed identity and branch name. */
export function git(args: string[], cwd: string): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' }).trim();
}

/** A git clone of the fixture at `DIR/owner+name`, one commit; returns the full commit id. */
export function createFixtureGitRepo(reposDir: string, ownerName: string): string {
  const root = join(reposDir, ownerName.replace('/', '+'));
  mkdirSync(root, { recursive: true });
  writeFixtureFiles(root);
  git(['init', '-q'], root);
  git(['add', '.'], root);
  git(['commit', '-q', '-m', 'fixture'], root);
  return git(['rev-parse', 'HEAD'], root);
}
