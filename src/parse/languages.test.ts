import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadGrammar } from './grammar-loader.js';
import { isLanguageId, LANGUAGE_IDS, languageForPath, languageSpec, queryPath, SUPPORTED_LANGUAGES, wasmPath } from './languages.js';

describe('the language registry', () => {
  it('has one entry per language id, in the order of LANGUAGE_IDS', () => {
    expect(SUPPORTED_LANGUAGES).toEqual(LANGUAGE_IDS);
    for (const id of LANGUAGE_IDS) expect(isLanguageId(id)).toBe(true);
    expect(isLanguageId('lua')).toBe(false);
  });
});

describe('languageForPath', () => {
  it.each([
    ['a/b.py', 'python'],
    ['stubs/x.pyi', 'python'],
    ['x.js', 'javascript'],
    ['x.mjs', 'javascript'],
    ['x.cjs', 'javascript'],
    ['x.jsx', 'javascript'],
    ['x.ts', 'typescript'],
    ['x.d.ts', 'typescript'],
    ['x.mts', 'typescript'],
    ['x.cts', 'typescript'],
    ['x.tsx', 'tsx'],
    ['X.java', 'java'],
    ['x.go', 'go'],
    ['x.rs', 'rust'],
    ['x.c', 'c'],
    ['x.h', 'c'],
    ['x.cpp', 'cpp'],
    ['x.cc', 'cpp'],
    ['x.cxx', 'cpp'],
    ['x.hpp', 'cpp'],
    ['x.hh', 'cpp'],
    ['x.cs', 'csharp'],
    ['x.rb', 'ruby'],
    ['Rakefile', 'ruby'],
    ['x.php', 'php'],
    ['x.kt', 'kotlin'],
    ['build.gradle.kts', 'kotlin'],
    ['x.swift', 'swift'],
    ['x.scala', 'scala'],
    ['x.sh', 'bash'],
    ['DIR\\Upper.PY', 'python'],
  ])('%s → %s', (path, language) => {
    expect(languageForPath(path)).toBe(language);
  });

  it.each(['README.md', 'Makefile', '.py', 'x.', 'dir.py/file', 'x.lua', 'x.json'])('%s is unsupported', (path) => {
    expect(languageForPath(path)).toBeNull();
  });
});

describe('registry', () => {
  it('lists every required language', () => {
    for (const id of ['python', 'javascript', 'typescript', 'tsx', 'java', 'go', 'rust', 'c', 'cpp', 'csharp', 'ruby', 'php', 'kotlin', 'swift']) {
      expect(SUPPORTED_LANGUAGES).toContain(id);
    }
  });

  it('throws on an unknown id', () => {
    expect(() => languageSpec('cobol')).toThrow(/unknown language/);
  });

  it.each([...SUPPORTED_LANGUAGES])('%s has a wasm, a query file, and a query that compiles', async (id) => {
    expect(existsSync(wasmPath(id))).toBe(true);
    expect(existsSync(queryPath(id))).toBe(true);
    const grammar = await loadGrammar(id);
    const captures = new Set(grammar.query.captureNames);
    expect(captures.has('name')).toBe(true);
    expect(captures.has('call.name')).toBe(true);
    expect(captures.has('comment')).toBe(true);
  });

  it('only uses documented capture names', async () => {
    const known = /^(definition\.(class|interface|struct|enum|trait|module|type|function|method|impl)|name|receiver|base|doc|import|import\.source|import\.name|call|call\.name|comment|_.*)$/;
    for (const id of SUPPORTED_LANGUAGES) {
      const { query } = await loadGrammar(id);
      for (const name of query.captureNames) expect(name, `${id}: @${name}`).toMatch(known);
    }
  });
});
