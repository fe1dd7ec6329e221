// Worker of bench/index-bench.mjs's parse-floor row: parses its share of the
// files with tree-sitter and runs the language query, nothing else (no symbol
// building, chunking, tokenizing or SQLite), and reports how long that took.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { distDir, files } = workerData;
const { loadGrammar } = await import(`${distDir}/parse/grammar-loader.js`);
const { languageForPath } = await import(`${distDir}/parse/languages.js`);
const started = performance.now();
for (const file of files) {
  const language = languageForPath(file);
  if (!language) continue;
  const grammar = await loadGrammar(language);
  const tree = grammar.parser.parse(readFileSync(file, 'utf8'));
  grammar.query.matches(tree.rootNode);
  tree.delete();
}
parentPort.postMessage({ ms: performance.now() - started });
