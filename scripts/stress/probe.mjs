#!/usr/bin/env node
/**
 * The answers an index gives, as one JSON line on stdout: every file with its
 * blob id, a digest of every file's symbols, full-text hits and a search. Opens
 * and refreshes the index as any command would (REPONAV_CACHE_DIR picks it),
 * so it shows what the next user command would see after a fault.
 *
 *   node scripts/stress/probe.mjs REPO [--commit REV]
 */
import { createHash } from 'node:crypto';
import { RepositoryIndex, searchRepository } from '../../dist/reponav.js';

const [root, flag, commit] = process.argv.slice(2);
const repository = await RepositoryIndex.open(root, { commit: flag === '--commit' ? commit : undefined });
try {
  await repository.refresh({ workers: 0 });
  const store = repository.store;
  const files = store.files().map((f) => `${f.path} ${f.blobId} ${f.language} ${f.status}`);
  const symbols = createHash('sha1');
  for (const f of store.files()) {
    for (const s of store.symbolsOf(f.path)) symbols.update(`${f.path}|${s.qualifiedName}|${s.kind}|${s.startLine}-${s.endLine}|${s.signature}\n`);
  }
  const search = await searchRepository(store, 'compute_value_33 fails when Widget12.render_12 is called');
  const answers = {
    files,
    symbols: symbols.digest('hex'),
    counts: store.counts(),
    // Rounded, and ties ordered by path: scores equal to 1e-12 may order either way depending on the
    // order rows were inserted (float sums), which is not what this suite checks.
    search: search.files
      .slice(0, 2)
      .map((f) => ({ path: f.path, score: f.score.toFixed(4) }))
      .sort((a, b) => Number(b.score) - Number(a.score) || (a.path < b.path ? -1 : 1))
      .map((f) => `${f.path} ${f.score}`),
    complete: store.getMeta('complete'),
  };
  process.stdout.write(JSON.stringify(answers) + '\n');
} finally {
  repository.close();
}
