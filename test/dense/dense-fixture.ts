/**
 * A tiny repository indexed into a temporary folder, plus a fake embeddings
 * server, for the dense-retrieval tests. Indexes never touch the user cache.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { RepositoryIndex } from '../../src/index/repository-index.js';

/** Source files of the fixture; the Markdown file is indexed but not searchable (no parsed language). */
export const DENSE_FIXTURE: Record<string, string> = {
  'shop/pricing.py': [
    'class PriceCalculator:',
    '    """Computes order totals."""',
    '',
    '    def compute(self, items):',
    '        return sum(item.price * item.quantity for item in items)',
    '',
    '    def apply_tax(self, total, rate):',
    '        return total * (1 + rate)',
    '',
  ].join('\n'),
  'shop/cart.py': [
    'def add_item(cart, item):',
    '    cart.append(item)',
    '',
    'def remove_item(cart, item):',
    '    cart.remove(item)',
    '',
  ].join('\n'),
  'auth/login.py': [
    'import hashlib',
    '',
    'def hash_password(password, salt):',
    '    return hashlib.sha256(salt + password).hexdigest()',
    '',
    'def verify_password(password, salt, expected):',
    '    return hash_password(password, salt) == expected',
    '',
  ].join('\n'),
  'tests/test_login.py': [
    'from auth.login import hash_password',
    '',
    'def test_hash_password_is_stable():',
    '    assert hash_password("pw", "salt") == hash_password("pw", "salt")',
    '',
  ].join('\n'),
  'README.md': '# Shop\n\nA password hashing and pricing demo.\n',
};

/** A fixture repository with its index opened and refreshed. */
export interface DenseFixture {
  root: string;
  repository: RepositoryIndex;
  /** Rewrites one file (bumping its mtime so the refresh sees it) and refreshes. */
  edit(path: string, content: string): Promise<void>;
  close(): void;
}

/** Writes the fixture to a temp folder and indexes it (`RepositoryIndex.open(dir, { indexPath })` + `refresh()`). */
export async function openDenseFixture(files: Record<string, string> = DENSE_FIXTURE): Promise<DenseFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'reponav-dense-'));
  const root = join(dir, 'repo');
  for (const [path, text] of Object.entries(files)) write(root, path, text);
  const repository = await RepositoryIndex.open(root, { indexPath: join(dir, 'index', 'index.db') });
  await repository.refresh();
  let bump = 10;
  return {
    root,
    repository,
    async edit(path, content) {
      write(root, path, content);
      const later = new Date(Date.now() + (bump += 10) * 1000);
      utimesSync(join(root, path), later, later);
      await repository.refresh();
    },
    close() {
      repository.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function write(root: string, path: string, text: string): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
