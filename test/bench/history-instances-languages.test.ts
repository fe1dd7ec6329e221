/**
 * bench/history-instances.mjs outside Python: a TypeScript declaration file
 * (`.d.ts`) is a stub like `.pyi`, never a source file of the gold, and a
 * Rust unit test beside the code (`#[cfg(test)] mod tests`) is a test, never
 * gold, as a Python test file is.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, cleanupTempDirs, commitAll, ensureBuilt, gitInit, put, tempDir } from '../cli/harness.js';

const SCRIPT = join(PROJECT_ROOT, 'bench/history-instances.mjs');

const LIB_RS = `pub fn parse(input: &str) -> usize {
    input.len()
}

pub fn untouched() -> usize {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_works() {
        assert_eq!(parse("ab"), 2);
    }
}
`;

const CLIENT_TS = `export function request(url: string): string {
  return url;
}
`;

const CLIENT_DTS = `export declare function request(url: string): string;
`;

let repo: string;
let rustFix: string;

beforeAll(async () => {
  await ensureBuilt();
  repo = tempDir('reponav-history-languages-');
  gitInit(repo);
  put(repo, 'src/lib.rs', LIB_RS);
  put(repo, 'src/client.ts', CLIENT_TS);
  put(repo, 'types/client.d.ts', CLIENT_DTS);
  commitAll(repo, 'Initial import');
  // The fix changes the code and its unit test: only the code is gold.
  put(repo, 'src/lib.rs', LIB_RS.replace('    input.len()', '    input.trim().len()').replace('parse("ab"), 2', 'parse(" ab "), 2'));
  rustFix = commitAll(repo, 'Fix parse counting surrounding blanks');
  // Only the unit test changes: no gold, as for a commit touching test files only.
  put(repo, 'src/lib.rs', LIB_RS.replace('    input.len()', '    input.trim().len()').replace('parse("ab"), 2', 'parse("abc"), 3'));
  commitAll(repo, 'Fix the parse unit test expectation');
  // A declaration file alone: a stub, not a source file.
  put(repo, 'types/client.d.ts', CLIENT_DTS.replace('url: string', 'url: string | URL'));
  commitAll(repo, 'Fix the request type to accept URL objects');
}, 240_000);

afterAll(() => cleanupTempDirs());

describe('history-instances.mjs on Rust and TypeScript', () => {
  it('leaves Rust unit tests beside the code and TypeScript declaration files out of the gold', () => {
    const result = spawnSync(process.execPath, [SCRIPT, join(repo, '.git'), '--repo', 'acme/tool', '--languages', 'rust,typescript'], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    const instances = result.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect(instances.map((i) => [i.fix_commit, i.edit_functions])).toEqual([[rustFix, ['src/lib.rs:parse']]]);
    expect(result.stderr).toContain('a source file changes outside functions only 1');
    expect(result.stderr).toContain('no non-test source file 1');
  });
});
