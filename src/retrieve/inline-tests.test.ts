import { afterAll, describe, expect, it } from 'vitest';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { isInlineTest } from './path-prior.js';
import { searchRepository } from './search-repository.js';

const fixtures = fixtureRepositories('inline-tests');
afterAll(() => fixtures.cleanUp());

const PRINTER = `pub struct Printer { max_columns: usize }

impl Printer {
    /// Shows a preview of lines longer than max columns.
    pub fn max_columns_preview(&mut self, yes: bool) -> &mut Printer {
        self.max_columns = if yes { 1 } else { 0 };
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_matching_max_columns_preview() {
        let mut p = Printer { max_columns: 0 };
        p.max_columns_preview(true);
        assert_eq!(p.max_columns, 1, "max columns preview with only matching");
    }

    #[test]
    fn max_columns_preview_only_matching_multi_line() {
        let mut p = Printer { max_columns: 0 };
        p.max_columns_preview(true);
        assert_eq!(p.max_columns, 1, "max columns preview only matching multi line");
    }
}
`;

describe('Rust unit tests inside library files', () => {
  it('are tests by their module, in .rs files only', () => {
    expect(isInlineTest('src/standard.rs', 'tests.only_matching')).toBe(true);
    expect(isInlineTest('src/standard.rs', 'printer.tests.only_matching')).toBe(true);
    expect(isInlineTest('src/standard.rs', 'test.only_matching')).toBe(true);
    expect(isInlineTest('src/standard.rs', 'Printer.max_columns_preview')).toBe(false);
    expect(isInlineTest('src/standard.rs', 'latests.x')).toBe(false);
    expect(isInlineTest('pkg/tests.py', 'tests.helper')).toBe(false);
  });

  it('rank below the function they test for a query about the feature', async () => {
    // Other code, so that BM25 sees the query's words as rare.
    const filler = Object.fromEntries(
      ['reader', 'walker', 'glob', 'config', 'decoder', 'matcher', 'buffer', 'sink'].map((name) => [
        `crates/${name}/src/lib.rs`,
        `pub struct ${name[0]!.toUpperCase()}${name.slice(1)} { size: usize }\n\npub fn open_${name}(path: &str) -> usize {\n    path.len()\n}\n`,
      ]),
    );
    const repository = await fixtures.indexed({ 'crates/printer/src/standard.rs': PRINTER, ...filler });
    try {
      const result = await searchRepository(repository.store, 'max columns preview does not work with only matching', {});
      expect(result.hits[0]?.symbol).toBe('Printer.max_columns_preview');
      expect(result.functions[0]?.qualifiedName).toBe('Printer.max_columns_preview');
    } finally {
      repository.close();
    }
  });
});
