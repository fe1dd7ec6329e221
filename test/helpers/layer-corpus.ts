/**
 * A realistic corpus for the lexical tests: a source folder of reponav's own
 * (the index layer: ~60 files, a vocabulary of thousands of tokens) copied
 * into a fresh repository folder, so scores are compared on real code, not
 * toy text.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../cli/harness.js';

/** The copied repository (`root`), each copied file's text, and where its index goes. */
export interface LayerCorpus {
  root: string;
  texts: string[];
  indexPath: string;
}

/** Copies the non-test `.ts` sources under `folder` into `src/` of a temp repository named after `prefix` (removed by the harness's cleanup). */
export function layerCorpus(folder: string, prefix: string): LayerCorpus {
  const dir = tempDir(prefix);
  const root = join(dir, 'repo');
  const sources = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
  for (const name of sources) {
    mkdirSync(dirname(join(root, 'src', name)), { recursive: true });
    copyFileSync(join(folder, name), join(root, 'src', name));
  }
  return { root, texts: sources.map((name) => readFileSync(join(root, 'src', name), 'utf8')), indexPath: join(dir, 'index.db') };
}
