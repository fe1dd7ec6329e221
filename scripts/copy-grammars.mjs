// Copies the grammars reponav takes from tree-sitter-wasms (C, Kotlin, Swift,
// Scala: 8 MB) into dist/grammars/, which the package ships. tree-sitter-wasms
// itself is a 50 MB development dependency holding 36 grammars, so an install of
// the package needs none of it. The bytes are the same files, so parse results
// are unchanged (test/golden decides). Run by `npm run build`, after tsc: the
// list comes from the compiled language registry.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shippedGrammarFiles } from '../dist/parse/languages.js';

const OUT = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'dist/grammars');
const require = createRequire(import.meta.url);
mkdirSync(OUT, { recursive: true });
for (const file of shippedGrammarFiles()) copyFileSync(require.resolve(`tree-sitter-wasms/out/${file}`), join(OUT, file));
